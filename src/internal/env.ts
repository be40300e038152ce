/** Reads an environment variable where one exists (Node, Bun, Deno with --allow-env); undefined elsewhere. */
export function readEnv(name: string): string | undefined {
  try {
    const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[
      name
    ];
    return value?.trim() || undefined;
  } catch {
    // Deno without env permission throws; treat as unset.
    return undefined;
  }
}
