/** What an upload may be: the accepted MIME types, each with its extensions, and the size ceiling in bytes. */
export interface UploadPolicy {
  types: Readonly<Record<string, readonly string[]>>;
  maxBytes: number;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** The policy's MIME type for a name or declared type; `undefined` when not accepted. */
export function acceptedType(
  policy: UploadPolicy,
  declared: string | undefined,
  name: string,
): string | undefined {
  if (declared) {
    const type = declared.split(';')[0]!.trim().toLowerCase();
    return type in policy.types ? type : undefined;
  }
  const ext = extensionOf(name);
  return Object.keys(policy.types).find((type) => policy.types[type]!.includes(ext));
}

/** The policy's types for a message: `.pdf (application/pdf), ...`. */
export function describeTypes(policy: UploadPolicy): string {
  return Object.entries(policy.types)
    .map(([type, exts]) => `${exts.join('/')} (${type})`)
    .join(', ');
}
