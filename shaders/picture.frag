#version 330 core
// The filtered frame, or a before/after split: the source on one side of a
// divider (left or top), the filtered frame on the other, and a thin line on
// the divider so it can be found and dragged.
uniform sampler2D uFiltered;
uniform sampler2D uSource;
uniform int uCompare;       // 0: filtered only, 1: split
uniform int uHorizontal;    // 1: horizontal divider (source above), 0: vertical (source left)
uniform float uSplit;       // divider position, 0..1 across the picture
uniform vec2 uPictureSize;  // picture size in framebuffer pixels, for a 2-pixel line at any zoom
in vec2 vUv;
out vec4 outColour;

void main() {
  vec4 filtered = texture(uFiltered, vUv);
  if (uCompare == 0) {
    outColour = vec4(filtered.rgb, 1.0);
    return;
  }
  float along = uHorizontal == 1 ? vUv.y : vUv.x;  // vUv.y grows downwards (see picture.vert)
  float pixels = uHorizontal == 1 ? uPictureSize.y : uPictureSize.x;
  vec4 colour = along < uSplit ? texture(uSource, vUv) : filtered;
  if (abs(along - uSplit) * pixels < 1.0) colour = vec4(1.0, 0.85, 0.2, 1.0);
  outColour = vec4(colour.rgb, 1.0);
}
