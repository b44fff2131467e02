// media/graph.css, bundled as text by esbuild (loader "text").
declare module "*.css" {
  const text: string;
  export default text;
}
