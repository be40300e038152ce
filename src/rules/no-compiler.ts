import type { compiler as withCompiler } from './compiler.js';

/**
 * What `#compiler` resolves to where zod's compiler is left out (Workers, the edge runtime, browsers, a
 * bundler's default conditions): every response is checked by zod's interpreted parsers. See `compiler.ts`.
 */
export const compiler: typeof withCompiler = () => "this build leaves zod's compiler out";
