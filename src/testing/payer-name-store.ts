import type * as z from 'zod/mini';
import type { FieldIssue } from '../core/error.js';
import { type PayerNameCreateSchema, payerNameCreateIssues } from '../rules/payer-name.js';
import { MockHttpError, validationFailed } from './http.js';
import type { MockAccount, MockPayerName, PayerNameStatus } from './types.js';

/** What the listing's `status=approved` covers; only these may be the default (rule 2 of the default endpoint). */
export const APPROVED: readonly PayerNameStatus[] = ['processing', 'active', 'action_required'];

let regions: Map<string, string> | undefined;

/** An ISO 3166-1 alpha-2 code for a code or an English country name (any case); undefined when it is neither. */
export function resolveCountry(value: string): string | undefined {
  if (!regions) {
    // Both spellings of every region Intl names, lower-cased, to its code; built on first use.
    regions = new Map();
    const display = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (const code of [...letters].flatMap((a) => [...letters].map((b) => a + b))) {
      const name = display.of(code);
      if (name) regions.set(name.toLowerCase(), code).set(code.toLowerCase(), code);
    }
  }
  return regions.get(value.trim().toLowerCase());
}

/**
 * Throws 409 when another name of the account in review or approved has this display name (case-insensitively).
 * The spec frees a name only when it is rejected or archived, so `changes_requested` (still in review) holds it.
 */
export function assertNameFree(account: MockAccount, name: string, exceptId?: string): void {
  const wanted = name.trim().toLowerCase();
  for (const pn of account.payerNames.values()) {
    const holds = pn.status !== 'rejected' && pn.status !== 'archived';
    if (pn.id !== exceptId && holds && pn.name.toLowerCase() === wanted) {
      throw new MockHttpError(409, `A payer name named "${name}" already exists on this account`);
    }
  }
}

/** Snake_case create fields of a stored name, for validating an update as a whole. */
export function toInput(pn: MockPayerName): Record<string, unknown> {
  const { address, metadata } = pn;
  const input = {
    entity_type: pn.type,
    display_name: pn.name,
    first_name: pn.firstName,
    last_name: pn.lastName,
    registration_number: pn.registrationNumber,
    registration_date: pn.registrationDate,
    country: pn.country,
    address_line: address.line1,
    city: address.city,
    state_province: address.state,
    postal_code: address.postalCode,
    metadata: metadata && { ...metadata },
  };
  // A field the name does not have is absent: the create schema takes no nulls.
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value != null));
}

/**
 * The fields of a stored name that a create body (or an update merged with the stored fields) sets, checked
 * with the spec's rules (the SDK's too) beside `issues` found already; a country that resolves to none is a 400.
 */
export function fieldsOf(input: Record<string, unknown>, issues: FieldIssue[] = []) {
  issues.unshift(...payerNameCreateIssues(input));
  if (issues.length) throw validationFailed(issues);
  const body = input as z.output<typeof PayerNameCreateSchema>;
  const country = resolveCountry(body.country);
  if (!country) {
    throw validationFailed([
      { path: ['country'], message: 'must be an ISO 3166-1 alpha-2 code or a country name' },
    ]);
  }
  return {
    type: body.entity_type,
    name: body.display_name.trim(),
    firstName: body.first_name ?? null,
    lastName: body.last_name ?? null,
    registrationNumber: body.registration_number ?? null,
    registrationDate: body.registration_date ?? null,
    country,
    address: {
      line1: body.address_line,
      city: body.city,
      state: body.state_province,
      postalCode: body.postal_code ?? null,
    },
    ...(body.metadata && Object.keys(body.metadata).length > 0 ? { metadata: { ...body.metadata } } : {}),
  };
}

/** A short stable hex digest (FNV-1a), for fake URL signatures that do not consume the seeded generator. */
function digest(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** The response form: documents get a download URL signed for one hour from `now`. */
export function viewPayerName(pn: MockPayerName, now: number): Record<string, unknown> {
  const expires = Math.floor(now / 1000) + 3600;
  const { metadata, documents, ...rest } = structuredClone(pn);
  return {
    ...rest,
    documents: documents.map((doc) => ({
      ...doc,
      downloadUrl: `https://files.payments.mock/payer-names/${pn.id}/documents/${doc.id}?expires=${expires}&signature=${digest(`${doc.id}:${expires}`)}`,
    })),
    ...(metadata ? { metadata } : {}),
  };
}
