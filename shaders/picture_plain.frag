#version 330 core
// The filtered frame alone: no split, no heat map. The common case, kept to a
// single texture read so a software GL (Mesa's llvmpipe) draws it on its fast
// path: with picture.frag's branches a 1200x675 picture cost the viewer about
// 8 ms more a pass on the two-core machine.
uniform sampler2D uFiltered;
in vec2 vUv;
out vec4 outColour;

void main() {
  outColour = vec4(texture(uFiltered, vUv).rgb, 1.0);
}
