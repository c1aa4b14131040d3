// Types for what the bundler understands beyond TypeScript (CSS imports, import.meta.env).
/// <reference types="@rsbuild/core/types" />

// ALTCHA's worker scripts are imported as their URL (rsbuild.config.ts, source.assetsInclude).
declare module 'altcha/workers/*' {
  const url: string;
  export default url;
}
