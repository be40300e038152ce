// Constants and helpers the bench's parts share.
import { fileURLToPath } from 'node:url';

export const API_KEY = 'sk_bench';
export const HEADERS = { 'X-API-Key': API_KEY, Accept: 'application/json' };
export const LIST_PATH = '/api/v1/external/transactions';
export const MB = 1024 * 1024;

export const here = (path) => fileURLToPath(new URL(path, import.meta.url));
export const fmt = (n, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export function check(ok, what) {
  if (!ok) throw new Error(`bench: unexpected response (${what})`);
}

/** The comparison sides both benches run, each reading the 20-row page at `origin` and checking its rows. */
export async function comparisonSides(origin) {
  const [{ default: ky }, { default: OpenAI }] = await Promise.all([import('ky'), import('openai')]);
  const url = `${origin}${LIST_PATH}?pageSize=20`;
  const openai = new OpenAI({ apiKey: API_KEY, baseURL: origin });
  return {
    // The floor the design sets: ky alone, with the retry and timeout options the SDK's transport uses.
    ky: async () => {
      const body = await ky(url, {
        headers: HEADERS,
        timeout: 60_000,
        retry: { limit: 2, retryOnTimeout: true },
      }).json();
      check(body.data.transactions.length === 20, 'ky page');
    },
    openai: async () => {
      const body = await openai.get(LIST_PATH, { query: { pageSize: 20 } });
      check(body.data.transactions.length === 20, 'openai page');
    },
  };
}

/** Block `b`'s order of the sides: rotated by `b`, reversed in every other round of rotations. */
export function blockOrder(names, b) {
  const rotated = names.map((_, i) => names[(i + b) % names.length]);
  return Math.floor(b / names.length) % 2 ? rotated.reverse() : rotated;
}
