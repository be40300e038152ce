import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script of the repository, without declarations
import { publishedManifest } from '../../scripts/manifest.mjs';

const ours = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

describe('scripts/manifest.mjs: the package.json npm pack ships', () => {
  it('leaves out scripts, workspaces and dev dependencies', () => {
    const published = publishedManifest(ours);
    expect(Object.keys(published)).not.toContain('scripts');
    expect(Object.keys(published)).not.toContain('workspaces');
    expect(Object.keys(published)).not.toContain('devDependencies');
  });

  it("drops #compiler's types path into src/ and keeps every runtime's condition", () => {
    const { types, ...conditions } = ours.imports['#compiler'];
    expect(types).toBe('./src/rules/compiler.ts');
    expect(publishedManifest(ours).imports['#compiler']).toEqual(conditions);
  });

  it('keeps everything else as it is', () => {
    const published = publishedManifest(ours);
    const { scripts, workspaces, devDependencies, imports, ...rest } = ours;
    expect({ ...published, imports: undefined }).toEqual({ ...rest, imports: undefined });
  });
});
