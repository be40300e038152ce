/** The spec types every id (and `X-Account-Id`) as a uuid: the canonical 8-4-4-4-12 hex form. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical 8-4-4-4-12 hex uuid, the form the spec uses for every id. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
