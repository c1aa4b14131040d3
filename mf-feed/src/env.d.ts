// Types for what the bundler understands beyond TypeScript (CSS imports, import.meta.env).
/// <reference types="@rsbuild/core/types" />
