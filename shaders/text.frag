// shaders/text.frag — glyph coverage from the atlas's single channel, tinted.
#version 330 core
in vec2 v_uv;
in vec4 v_color;
uniform sampler2D u_atlas;
out vec4 frag_color;

void main() {
    float coverage = texture(u_atlas, v_uv).r;
    frag_color = vec4(v_color.rgb, v_color.a * coverage);
}
