// shaders/text.vert — one instanced quad per glyph, cut from the glyph atlas.
#version 330 core
layout(location = 0) in vec4 a_rect;   // x, y, w, h in pixels, origin top-left
layout(location = 1) in vec4 a_uv;     // u0, v0, u1, v1 in the atlas
layout(location = 2) in vec4 a_color;
uniform vec2 u_viewport;
out vec2 v_uv;
out vec4 v_color;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    vec2 pos = a_rect.xy + corner * a_rect.zw;
    v_uv = mix(a_uv.xy, a_uv.zw, corner);
    v_color = a_color;
    gl_Position = vec4(pos.x / u_viewport.x * 2.0 - 1.0, 1.0 - pos.y / u_viewport.y * 2.0, 0.0, 1.0);
}
