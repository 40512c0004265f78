#version 330 core
// The filtered frame, or a before/after split: the source on one side of a
// divider (left or top), the filtered frame on the other, and a thin line on
// the divider so it can be found and dragged. In check mode the heat map of
// the last check lies over the filtered picture, in the region it checked
// (outlined when that is not the whole frame).
uniform sampler2D uFiltered;
uniform sampler2D uSource;
uniform sampler2D uHeat;
uniform int uCompare;       // 0: filtered only, 1: split
uniform int uHorizontal;    // 1: horizontal divider (source above), 0: vertical (source left)
uniform float uSplit;       // divider position, 0..1 across the picture
uniform vec2 uPictureSize;  // picture size in framebuffer pixels, for a 2-pixel line at any zoom
uniform int uHeatOn;        // 1: a heat map is laid over the filtered picture
uniform vec4 uHeatRect;     // its place in texture coordinates: left, top, right, bottom
uniform int uHeatOutline;   // 1: outline the checked region
in vec2 vUv;
out vec4 outColour;

vec3 withHeat(vec3 colour) {
  if (uHeatOn == 0) return colour;
  vec2 lo = uHeatRect.xy, hi = uHeatRect.zw;
  if (uHeatOutline == 1) {
    vec2 px = 1.0 / uPictureSize;  // a line about 2 framebuffer pixels wide just outside the region
    bool inside = all(greaterThanEqual(vUv, lo - 2.0 * px)) && all(lessThanEqual(vUv, hi + 2.0 * px));
    bool inner = all(greaterThanEqual(vUv, lo)) && all(lessThanEqual(vUv, hi));
    if (inside && !inner) return vec3(0.25, 0.85, 1.0);
  }
  if (any(lessThan(vUv, lo)) || any(greaterThan(vUv, hi))) return colour;
  vec4 heat = texture(uHeat, (vUv - lo) / (hi - lo));
  return mix(colour, heat.rgb, heat.a);
}

void main() {
  vec4 filtered = texture(uFiltered, vUv);
  if (uCompare == 0) {
    outColour = vec4(withHeat(filtered.rgb), 1.0);
    return;
  }
  float along = uHorizontal == 1 ? vUv.y : vUv.x;  // vUv.y grows downwards (see picture.vert)
  float pixels = uHorizontal == 1 ? uPictureSize.y : uPictureSize.x;
  vec4 colour = along < uSplit ? texture(uSource, vUv) : vec4(withHeat(filtered.rgb), 1.0);
  if (abs(along - uSplit) * pixels < 1.0) colour = vec4(1.0, 0.85, 0.2, 1.0);
  outColour = vec4(colour.rgb, 1.0);
}
