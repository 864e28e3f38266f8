// shaders/box.vert — one instanced rounded box per value, barrier, mask lane or folded group.
#version 330 core
layout(location = 0) in vec4 a_rect;    // x, y, w, h in pixels, origin top-left
layout(location = 1) in vec4 a_fill;
layout(location = 2) in vec4 a_edge;
layout(location = 3) in vec4 a_params;  // edge width, corner radius, pattern, unused
uniform vec2 u_viewport;
out vec2 v_local;
out vec2 v_size;
out vec4 v_fill;
out vec4 v_edge;
flat out vec4 v_params;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    // One pixel of margin so the anti-aliased edge is not cut off.
    vec2 pos = a_rect.xy - 1.0 + corner * (a_rect.zw + 2.0);
    v_local = pos - a_rect.xy;
    v_size = a_rect.zw;
    v_fill = a_fill;
    v_edge = a_edge;
    v_params = a_params;
    gl_Position = vec4(pos.x / u_viewport.x * 2.0 - 1.0, 1.0 - pos.y / u_viewport.y * 2.0, 0.0, 1.0);
}
