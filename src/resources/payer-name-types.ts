import * as z from 'zod/mini';
import type { FieldIssue } from '../core/error.js';
import { fieldIssues, openEnum, pagingParams } from '../internal/schema.js';
import { acceptedType, describeTypes, type UploadInput, type UploadPolicy } from '../internal/uploads.js';
import { isCalendarDate } from '../spec/dates.js';

/** Schemas, constants and types of the payer-name resource; the methods are in `payer-names.ts`. */

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

/** @internal The document rules as an upload policy. */
export const DOCUMENT_POLICY: UploadPolicy = {
  types: PAYER_NAME_DOCUMENT_TYPES,
  maxBytes: PAYER_NAME_DOCUMENT_MAX_BYTES,
};

const nullableString = z.nullable(z.string());
const metadataValue = z.union([z.string(), z.number(), z.boolean()]);

/** A file attached to a payer name; read by review only, never forwarded to a payout rail. */
export const PayerNameDocumentSchema = z.looseObject({
  id: z.string(),
  fileName: z.string(),
  /** The `documentDescriptions` label; null for an unlabelled file. */
  description: nullableString,
  /** MIME type. */
  fileType: z.string(),
  /** Bytes. */
  fileSize: z.int(),
  /** Signed URL valid 1 hour from the response; empty string when the stored object is gone. */
  downloadUrl: z.string(),
  createdAt: z.string(),
});
/** A document of a payer name. */
export type PayerNameDocument = z.infer<typeof PayerNameDocumentSchema>;

/** A payer name: the name a payout recipient sees. Unknown fields the service adds are kept. */
export const PayerNameSchema = z.looseObject({
  id: z.string(),
  type: openEnum(PAYER_NAME_ENTITY_TYPES),
  /** The name shown to the beneficiary. */
  name: z.string(),
  /** Individuals only; null for a business. */
  firstName: nullableString,
  lastName: nullableString,
  registrationNumber: nullableString,
  /** YYYY-MM-DD. */
  registrationDate: nullableString,
  /** ISO 3166-1 alpha-2. */
  country: z.string(),
  address: z.looseObject({
    line1: z.string(),
    city: z.string(),
    state: z.string(),
    postalCode: nullableString,
  }),
  status: openEnum(PAYER_NAME_STATUSES),
  /** Applied to payouts that name no payer name. */
  isDefault: z.boolean(),
  /** Reviewer note, set on `changes_requested` and `rejected`. */
  decisionNote: nullableString,
  documents: z.array(PayerNameDocumentSchema),
  /** The caller's flat key/value data, echoed verbatim; omitted when none is set. */
  metadata: z.optional(z.record(z.string(), metadataValue)),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** A payer name as the service returns it. */
export type PayerName = z.infer<typeof PayerNameSchema>;

const text = (min: number, max: number) =>
  z
    .string()
    .check(
      z.minLength(min, min === 1 ? 'must not be empty' : `must be at least ${min} characters`),
      z.maxLength(max, `must be at most ${max} characters`),
    );
const optionalText = (max: number) =>
  z.optional(z.string().check(z.maxLength(max, `must be at most ${max} characters`)));

const MetadataSchema = z
  .record(
    z.string(),
    z.union([z.string().check(z.maxLength(500, 'must be at most 500 characters')), z.number(), z.boolean()], {
      error: 'must be a string, a number or a boolean (metadata is flat)',
    }),
    'must be a flat object',
  )
  .check(
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
  entity_type: z.enum(PAYER_NAME_ENTITY_TYPES, 'must be one of: individual, business'),
  display_name: text(1, 255),
  first_name: optionalText(120),
  last_name: optionalText(120),
  registration_number: optionalText(120),
  registration_date: z.optional(z.string().check(z.refine(isCalendarDate, 'must be a date YYYY-MM-DD'))),
  country: text(1, 100),
  address_line: text(1, 500),
  city: text(1, 120),
  state_province: text(1, 120),
  postal_code: optionalText(32),
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

/** Body of POST /payer-names (JSON form). */
export const PayerNameCreateSchema = z.strictObject(createFields, 'must be an object').check(individualNames);
/** Body of the update (inferred PATCH /payer-names/{id}). */
export const PayerNameUpdateSchema = z
  .partial(z.strictObject(createFields, 'must be an object'))
  .check(individualNames);

/** Flat caller data: keys up to 64 characters; values strings up to 500 characters, numbers or booleans. */
export type PayerNameMetadata = Record<string, string | number | boolean>;

/** The fields of POST /payer-names, snake_case as on the wire. */
export interface PayerNameFields {
  entity_type: 'individual' | 'business';
  /** 1 to 255 characters; unique (case-insensitively) among your names in review or approved. */
  display_name: string;
  /** Individuals only; up to 120 characters; send already split. */
  first_name?: string;
  last_name?: string;
  /** Company number or government ID number; up to 120 characters. */
  registration_number?: string;
  /** YYYY-MM-DD. */
  registration_date?: string;
  /** ISO 3166-1 alpha-2 or a country name the service resolves to one; 1 to 100 characters. */
  country: string;
  address_line: string;
  city: string;
  state_province: string;
  postal_code?: string;
  /** JSON requests only: not with `documents` (set it afterwards with `payerNames.update`). */
  metadata?: PayerNameMetadata;
}

/** A document to submit: the file itself, or the file with its label, name, type or size. */
export type PayerNameDocumentInput = UploadInput['file'] | (UploadInput & { description?: string });

/** Input of `payerNames.create`. With `documents` the request is sent as a streamed `multipart/form-data`. */
export interface PayerNameCreateParams extends PayerNameFields {
  /** PDF, JPEG, PNG or Word files up to 10 MB each; read lazily while sending, never buffered whole. */
  documents?: PayerNameDocumentInput[];
}

/** Input of `payerNames.update`: any of the create fields (no documents). */
export type PayerNameUpdateParams = Partial<PayerNameFields>;

/** Filters of GET /payer-names. */
export interface PayerNameListParams {
  page?: number;
  /** 1 to 100; default 20. */
  pageSize?: number;
  /** Archived names only (true) or none of them (false). */
  archived?: boolean;
  /**
   * A review status; `approved` matches names in `processing`, `active` and `action_required`. Any other string
   * is sent as given (a review status the spec does not list).
   */
  status?: PayerNameReviewStatus | (string & {});
  /** Parameters the spec does not show, sent as given. */
  query?: Record<string, string | number | boolean>;
}

const LIST_KEYS = ['page', 'pageSize', 'archived', 'status'];
/** Filters of GET /payer-names. */
export const PayerNameListParamsSchema = z
  .strictObject({
    ...pagingParams(),
    archived: z.optional(z.boolean('must be a boolean')),
    // Open: the spec says the filter takes review statuses and lists four, without saying there are no others.
    status: z.optional(openEnum(PAYER_NAME_REVIEW_STATUSES)),
    query: z.optional(
      z.record(
        z.string(),
        z.union([z.string(), z.number(), z.boolean()], 'must be a string, number or boolean'),
      ),
    ),
  })
  .check(
    z.superRefine((params, ctx) => {
      for (const key of Object.keys(params.query ?? {})) {
        if (LIST_KEYS.includes(key)) {
          ctx.addIssue({
            code: 'custom',
            message: `set it as the ${key} parameter`,
            path: ['query', key],
            input: key,
          });
        }
      }
    }),
  );

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
