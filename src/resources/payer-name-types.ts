import * as z from 'zod/mini';
import { page, pageSize } from '../rules/paging.js';
import {
  PAYER_NAME_ENTITY_TYPES,
  PAYER_NAME_REVIEW_STATUSES,
  PAYER_NAME_STATUSES,
  type PayerNameCreateSchema,
} from '../rules/payer-name.js';
import { looseObject, openEnum, recordOf, strictObject } from '../rules/schema.js';
import type { UploadInput } from './uploads.js';

/** Response schemas and input types of the payer-name resource; the rules are in `rules/payer-name.ts`. */

const nullableString = z.nullable(z.string());

/** A file attached to a payer name; read by review only, never forwarded to a payout rail. */
export const PayerNameDocumentSchema = looseObject({
  /** uuid. */
  id: z.string(),
  /** The file's name. */
  fileName: z.string(),
  /** The label sent in `documentDescriptions`; null for an unlabelled file. */
  description: nullableString,
  /** MIME type. */
  fileType: z.string(),
  /** Size in bytes. */
  fileSize: z.int(),
  /** Signed URL, valid 1 hour from when the response was generated; empty string when the stored object is gone. */
  downloadUrl: z.string(),
  /** ISO 8601 date-time. */
  createdAt: z.string(),
});
/** A document of a payer name. */
export type PayerNameDocument = z.infer<typeof PayerNameDocumentSchema>;

/** A payer name: the name a payout recipient sees. Unknown fields the service adds are kept. */
export const PayerNameSchema = looseObject({
  /** uuid: what a payout's `payerNameId` takes. */
  id: z.string(),
  /** `individual` or `business`. */
  type: openEnum(PAYER_NAME_ENTITY_TYPES),
  /** The name shown to the beneficiary. */
  name: z.string(),
  /** Individuals only; null for a business. */
  firstName: nullableString,
  /** Individuals only; null for a business. */
  lastName: nullableString,
  /** Company number or government ID number; null when none was given. */
  registrationNumber: nullableString,
  /** YYYY-MM-DD; null when none was given. */
  registrationDate: nullableString,
  /** ISO 3166-1 alpha-2. */
  country: z.string(),
  /** The postal address. */
  address: looseObject({
    /** Street address (`address_line` in requests). */
    line1: z.string(),
    /** The city. */
    city: z.string(),
    /** State or province (`state_province` in requests). */
    state: z.string(),
    /** Null when none was given. */
    postalCode: nullableString,
  }),
  /**
   * `pending_review`, `changes_requested`, `processing`, `active`, `action_required`, `rejected` or `archived`:
   * review and provider registration collapsed into one value. Only `active` is fully usable; a `processing`
   * name can be the default, and payouts sent then carry it but wait until it is `active`. `archived` is not
   * reversible.
   */
  status: openEnum(PAYER_NAME_STATUSES),
  /** Applied to payouts that name no payer name. At most one per account. */
  isDefault: z.boolean(),
  /** The reviewer's note, verbatim; set on `changes_requested` and `rejected`, cleared on an update. */
  decisionNote: nullableString,
  /** Files attached for review; never forwarded to a payout rail. */
  documents: z.array(PayerNameDocumentSchema),
  /** Your flat key/value data, echoed verbatim (webhooks carry it too); omitted entirely when none is set. */
  metadata: z.optional(recordOf(z.union([z.string(), z.number(), z.boolean()]))),
  /** ISO 8601 date-time. */
  createdAt: z.string(),
  /** ISO 8601 date-time. */
  updatedAt: z.string(),
});
/** A payer name as the service returns it. */
export type PayerName = z.infer<typeof PayerNameSchema>;

/** Flat caller data: keys up to 64 characters; values strings up to 500 characters, numbers or booleans. */
export type PayerNameMetadata = Record<string, string | number | boolean>;

/** The fields of POST /payer-names, snake_case as on the wire. */
export type PayerNameFields = z.input<typeof PayerNameCreateSchema>;

/** A document to submit: the file itself, or the file with its label, name, type or size. */
export type PayerNameDocumentInput = UploadInput['file'] | (UploadInput & { description?: string });

/** Input of `payerNames.create`. With `documents` the request is sent as a streamed `multipart/form-data`. */
export interface PayerNameCreateParams extends PayerNameFields {
  /** PDF, JPEG, PNG or Word files up to 10 MB each; read lazily while sending, never buffered whole. */
  documents?: PayerNameDocumentInput[];
}

/** Input of `payerNames.update`: any of the create fields (no documents). */
export type PayerNameUpdateParams = Partial<PayerNameFields>;

const LIST_KEYS = ['page', 'pageSize', 'archived', 'status'];
/** Filters of GET /payer-names, checked before sending. */
export const PayerNameListParamsSchema = strictObject({
  /** 1 or more; default 1. */
  page,
  /** At least 1; default 20. The spec states no ceiling for this list. */
  pageSize: pageSize(),
  /** Archived names only (true) or none of them (false). */
  archived: z.optional(z.boolean('must be a boolean')),
  /**
   * A review status; `approved` matches names in `processing`, `active` and `action_required`. Any other string
   * is sent as given (a review status the spec does not list).
   */
  // Open: the spec says the filter takes review statuses and lists four, without saying there are no others.
  status: z.optional(openEnum(PAYER_NAME_REVIEW_STATUSES)),
  /** Parameters the spec does not show, sent as given. */
  query: z.optional(
    recordOf(z.union([z.string(), z.number(), z.boolean()], 'must be a string, number or boolean')),
  ),
}).check(
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
/** Filters of GET /payer-names. */
export type PayerNameListParams = z.input<typeof PayerNameListParamsSchema>;
