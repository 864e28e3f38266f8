// shaders/box.frag — fills, borders and the patterns that tell value kinds apart without colour.
#version 330 core
in vec2 v_local;
in vec2 v_size;
in vec4 v_fill;
in vec4 v_edge;
flat in vec4 v_params;
out vec4 frag_color;

float rounded_box(vec2 p, vec2 half_size, float r) {
    vec2 q = abs(p) - half_size + r;
    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

void main() {
    vec2 half_size = v_size * 0.5;
    vec2 p = v_local - half_size;
    float r = min(v_params.y, min(half_size.x, half_size.y));
    float d = rounded_box(p, half_size, r);
    float inside = clamp(0.5 - d, 0.0, 1.0);
    if (inside <= 0.0) discard;
    float edge_w = v_params.x;
    float edge = edge_w > 0.0 ? clamp(d + edge_w + 0.5, 0.0, 1.0) : 0.0;
    int pattern = int(v_params.z + 0.5);
    vec4 fill = v_fill;
    if (pattern == 1) {
        // Undefined: diagonal stripes.
        float s = mod(v_local.x + v_local.y, 10.0);
        fill.rgb = s < 5.0 ? fill.rgb : fill.rgb * 0.55;
    } else if (pattern == 2) {
        // Identity only: hollow, with a dashed border.
        bool vertical_edge = (half_size.x - abs(p.x)) < (half_size.y - abs(p.y));
        float along = vertical_edge ? v_local.y : v_local.x;
        if (mod(along, 9.0) > 5.0) edge = 0.0;
    } else if (pattern == 3) {
        // Barrier: vertical bars, a wall every warp must reach.
        fill.rgb = mod(v_local.x, 8.0) < 4.0 ? fill.rgb : fill.rgb * 0.6;
    } else if (pattern == 4) {
        // Folded group: a dot grid.
        vec2 m = mod(v_local, 4.0);
        fill.rgb = (m.x < 2.0 && m.y < 2.0) ? fill.rgb * 0.7 : fill.rgb;
    }
    vec4 c = mix(fill, v_edge, edge);
    frag_color = vec4(c.rgb, c.a * inside);
}
