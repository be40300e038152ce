import * as z from 'zod/mini';
import type { FieldIssue } from '../core/error.js';
import { isCalendarDate } from './dates.js';
import { atMost, fieldIssues, recordOf, strictObject } from './schema.js';
import { acceptedType, describeTypes, type UploadPolicy } from './upload-policy.js';

/**
 * POST /payer-names and its update as the spec states them (field lengths from the Limits table), the statuses
 * and the document rules: what `payerNames` checks before sending and the mock checks on arrival.
 */

/** Every payer name status the spec lists; only `active` is fully usable. */
export const PAYER_NAME_STATUSES = [
  'pending_review',
  'changes_requested',
  'processing',
  'active',
  'action_required',
  'rejected',
  'archived',
] as const;
/** A payer name status the spec lists. */
export type KnownPayerNameStatus = (typeof PAYER_NAME_STATUSES)[number];

/** Review statuses the listing's `status` filter takes; `approved` covers processing, active and action_required. */
export const PAYER_NAME_REVIEW_STATUSES = [
  'pending_review',
  'changes_requested',
  'approved',
  'rejected',
] as const;
/** A review status for `payerNames.list({ status })`. */
export type PayerNameReviewStatus = (typeof PAYER_NAME_REVIEW_STATUSES)[number];

/** `entity_type` of a payer name. */
export const PAYER_NAME_ENTITY_TYPES = ['individual', 'business'] as const;

/** Largest document the service takes: 10 MB each. */
export const PAYER_NAME_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

/** Document types the service takes (PDF, JPEG, PNG, Word), each with the extensions judged when no type is given. */
export const PAYER_NAME_DOCUMENT_TYPES: Readonly<Record<string, readonly string[]>> = {
  'application/pdf': ['.pdf'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'application/msword': ['.doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
};

/** The document rules as an upload policy. */
export const DOCUMENT_POLICY: UploadPolicy = {
  types: PAYER_NAME_DOCUMENT_TYPES,
  maxBytes: PAYER_NAME_DOCUMENT_MAX_BYTES,
};

const text = (max: number) =>
  z.string().check(
    z.refine((value) => value !== '', 'must not be empty'),
    atMost(max),
  );
const optionalText = (max: number) => z.optional(z.string().check(atMost(max)));

const MetadataSchema = recordOf(
  z.union([z.string().check(atMost(500)), z.number(), z.boolean()], {
    error: 'must be a string, a number or a boolean (metadata is flat)',
  }),
  'must be a flat object',
).check(
  z.superRefine((metadata, ctx) => {
    for (const key of Object.keys(metadata)) {
      if (key.length > 64) {
        ctx.addIssue({
          code: 'custom',
          message: 'key must be at most 64 characters',
          path: [key],
          input: key,
        });
      }
    }
  }),
);

const createFields = {
  /** `individual` or `business`. */
  entity_type: z.enum(PAYER_NAME_ENTITY_TYPES, 'must be one of: individual, business'),
  /** 1 to 255 characters; unique (case-insensitively) among your names in review or approved. */
  display_name: text(255),
  /** Individuals only; up to 120 characters; send already split. */
  first_name: optionalText(120),
  /** Individuals only; up to 120 characters; send already split. */
  last_name: optionalText(120),
  /** Company number or government ID number; up to 120 characters. */
  registration_number: optionalText(120),
  /** YYYY-MM-DD. */
  registration_date: z.optional(z.string().check(z.refine(isCalendarDate, 'must be a date YYYY-MM-DD'))),
  /** ISO 3166-1 alpha-2 or a country name the service resolves to one; 1 to 100 characters. */
  country: text(100),
  /** 1 to 500 characters. */
  address_line: text(500),
  /** 1 to 120 characters. */
  city: text(120),
  /** 1 to 120 characters. */
  state_province: text(120),
  /** Up to 32 characters. */
  postal_code: optionalText(32),
  /**
   * Flat: keys up to 64 characters; values strings (up to 500 characters), numbers or booleans; echoed verbatim.
   * JSON requests only: not with `documents` (set it afterwards with `payerNames.update`).
   */
  metadata: z.optional(MetadataSchema),
};

// Names are stored for individuals only; sending them for a business would be silently lost or refused.
const individualNames = z.superRefine(
  (body: { entity_type?: string; first_name?: string; last_name?: string }, ctx) => {
    if (body.entity_type !== 'business') return;
    for (const key of ['first_name', 'last_name'] as const) {
      if (body[key] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'is for entity_type individual only',
          path: [key],
          input: body[key],
        });
      }
    }
  },
);

/** Body of POST /payer-names (JSON form): the fields, snake_case as on the wire, checked before sending. */
export const PayerNameCreateSchema = strictObject(createFields, 'must be an object').check(individualNames);
/** Body of the update (inferred PATCH /payer-names/{id}). */
export const PayerNameUpdateSchema = z
  .partial(strictObject(createFields, 'must be an object'))
  .check(individualNames);

/** Field issues of a create body (JSON, or the text fields of the multipart form); empty when valid. Never throws. */
export function payerNameCreateIssues(input: unknown): FieldIssue[] {
  return fieldIssues(PayerNameCreateSchema, input);
}

/** Issues of uploaded documents as a server sees them (name, MIME type, bytes), each named `documents.N`. */
export function payerNameDocumentIssues(
  files: ReadonlyArray<{ name: string; type?: string; size: number }>,
): FieldIssue[] {
  return files.flatMap((file, i) => {
    const path = ['documents', String(i)];
    if (!acceptedType(DOCUMENT_POLICY, file.type || undefined, file.name)) {
      return [{ path, message: `must be one of: ${describeTypes(DOCUMENT_POLICY)}` }];
    }
    if (file.size > PAYER_NAME_DOCUMENT_MAX_BYTES) return [{ path, message: 'must be at most 10 MB' }];
    return [];
  });
}
