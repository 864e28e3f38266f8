// shaders/arrow.vert — one instanced arrow (shaft and head) per shuffle or cross-thread read.
#version 330 core
layout(location = 0) in vec4 a_line;    // x0, y0, x1, y1 in pixels, origin top-left; the head is at (x1, y1)
layout(location = 1) in vec4 a_color;
layout(location = 2) in vec2 a_params;  // shaft width, head length
uniform vec2 u_viewport;
out vec4 v_color;
out float v_across;   // signed distance from the shaft's centre line, pixels (shaft only)
flat out float v_half;

void main() {
    vec2 p0 = a_line.xy, p1 = a_line.zw;
    vec2 d = p1 - p0;
    float len = max(length(d), 1e-3);
    vec2 dir = d / len;
    vec2 nrm = vec2(-dir.y, dir.x);
    float head = min(a_params.y, len * 0.6);
    float half_w = a_params.x * 0.5 + 1.0;  // one extra pixel for anti-aliasing
    vec2 base = p1 - dir * head;
    vec2 pos;
    float across = 0.0;
    int id = gl_VertexID;
    if (id < 6) {
        // Shaft: two triangles from p0 to the head's base.
        int k = id == 0 ? 0 : id == 1 ? 1 : id == 2 ? 2 : id == 3 ? 2 : id == 4 ? 1 : 3;
        vec2 along = (k & 2) != 0 ? base : p0;
        float side = (k & 1) != 0 ? 1.0 : -1.0;
        pos = along + nrm * side * half_w;
        across = side * half_w;
    } else {
        float hw = max(head * 0.55, a_params.x * 1.5);
        pos = id == 6 ? p1 : id == 7 ? base + nrm * hw : base - nrm * hw;
        across = 0.0;
    }
    v_color = a_color;
    v_across = across;
    v_half = id < 6 ? a_params.x * 0.5 : 1e6;
    gl_Position = vec4(pos.x / u_viewport.x * 2.0 - 1.0, 1.0 - pos.y / u_viewport.y * 2.0, 0.0, 1.0);
}
