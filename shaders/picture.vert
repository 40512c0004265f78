#version 330 core
// The picture quad: four vertices from gl_VertexID (no vertex buffer), scaled
// in NDC so the frame keeps its aspect ratio inside the viewport it is given.
uniform vec2 uScale;  // <= 1 on the axis with letterbox bars
out vec2 vUv;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));  // (0,0) (1,0) (0,1) (1,1)
  // Frames arrive top row first; GL textures start at the bottom, so v is flipped.
  vUv = vec2(corner.x, 1.0 - corner.y);
  gl_Position = vec4((corner * 2.0 - 1.0) * uScale, 0.0, 1.0);
}
