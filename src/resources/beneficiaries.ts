import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import { BadRequestError, NotFoundError } from '../core/error.js';
import type { PagePromise } from '../core/pagination.js';
import { safeStringify } from '../core/values.js';
import { route } from '../internal/path.js';
import type { Call } from '../internal/pipeline.js';
import { REQUEST_OPTION_SHAPE, type RequestOptions } from '../internal/request-options.js';
import {
  type BeneficiaryInput,
  type BeneficiaryWrite,
  beneficiaryInputSchema,
  beneficiaryWire,
  WITHDRAWAL_METHODS,
} from '../rules/beneficiary.js';
import { aBoolean, optionBag } from '../rules/option-bag.js';
import { page, pageSize } from '../rules/paging.js';
import { looseObject, openEnum, parseRequest, recordOf, strictObject } from '../rules/schema.js';
import { APIResource } from './resource.js';

const optionalString = z.optional(z.string());

/**
 * A beneficiary as the service returns it. Only populated fields are present (a crypto beneficiary carries no bank
 * fields), fields this SDK does not know yet are kept, and names stay snake_case as on the wire.
 */
export const BeneficiarySchema = looseObject({
  /** uuid: the id `update`, `retrieve` and `delete` take. */
  id: z.string(),
  /** The account holder's name; a nickname for crypto and `platform_transfer`. */
  account_name: optionalString,
  /** Currency code. */
  currency: optionalString,
  /** The beneficiary's email address. */
  email: optionalString,
  /** Your friendly label. */
  label: optionalString,
  /** Bank rails only (a crypto beneficiary never carries bank fields). */
  account_number: optionalString,
  /** Bank rails only. */
  bank_name: optionalString,
  /** Bank rails only: the NIP institution code for NGN. */
  bank_code: optionalString,
  /**
   * The rail: `domestic_wire`, `international_wire`, `ach`, `local_transfer`, `crypto_usdt`, `crypto_usdc`,
   * `platform_transfer` or `mobile_money`. Always present; null when no rail was set (an NGN bank transfer).
   */
  withdrawal_method: z.nullable(openEnum(WITHDRAWAL_METHODS)),
  /**
   * Present only during the grace period, when a required classification field (`account_owner_type`,
   * `account_category`) was omitted; the spec does not show its fields. After the enforcement date the
   * omission is a 400.
   */
  deprecation_warning: z.optional(recordOf(z.unknown())),
});
/** A saved beneficiary. */
export type Beneficiary = z.infer<typeof BeneficiarySchema>;

/** The query of GET /beneficiaries, checked before sending: `page` and `pageSize` (no ceiling stated). */
export const BeneficiaryListParamsSchema = strictObject({
  /** 1 or more; default 1. */
  page,
  /** At least 1; default 20. The spec states no ceiling for this list. */
  pageSize: pageSize(),
});
/** Paging of the beneficiary list (the spec shows no other filters). */
export type BeneficiaryListParams = z.input<typeof BeneficiaryListParamsSchema>;

/** Per-call options of `create` and `update`. */
export interface BeneficiaryWriteOptions extends RequestOptions {
  /**
   * Sends a body without the `account_owner_type`/`account_category` the SDK otherwise demands, for records you
   * cannot classify yet. The service accepts that only during its deprecation grace period (then answers with
   * `deprecation_warning`) and rejects it with 400 afterwards. The types still demand the fields: cast on purpose.
   */
  allowUnclassified?: boolean;
}

const writeOptions = optionBag<BeneficiaryWriteOptions>({
  ...REQUEST_OPTION_SHAPE,
  allowUnclassified: aBoolean,
});

/** True for the service's answer to an unknown (or another business's) beneficiary id: 400 `Beneficiary not found`. */
export function isBeneficiaryNotFound(error: unknown): boolean {
  // The spec answers 400; a 404 with the same message is accepted too in case the service moves to it.
  return (
    (error instanceof BadRequestError || error instanceof NotFoundError) &&
    /Beneficiary not found/i.test(error.message)
  );
}

// One warning per client is enough to prompt a backfill; every response still carries the field itself.
const warned = new WeakSet<object>();
const TEMPLATE = '/beneficiaries/{beneficiaryId}';

/**
 * Saved beneficiaries. PATCH and DELETE are in the spec; the create, retrieve and list paths are inferred from
 * them (the spec names those operations without showing them).
 */
export class Beneficiaries extends APIResource {
  readonly #schema = z.pipe(
    BeneficiarySchema,
    z.transform((beneficiary: Beneficiary) => {
      if (beneficiary.deprecation_warning && !warned.has(this.client)) {
        warned.add(this.client);
        this.api.logger.log(
          'warn',
          `Beneficiary ${beneficiary.id} lacks account_owner_type/account_category; the service accepted it ` +
            `during its grace period with deprecation_warning ${safeStringify(beneficiary.deprecation_warning)}. ` +
            'Send both fields (update backfills them): omission will be rejected with 400. Logged once per client.',
        );
      }
      return beneficiary;
    }),
  );

  /** POST /beneficiaries (path inferred). Validates the body for its rail first; never retried (not idempotent). */
  create(body: BeneficiaryInput, options?: BeneficiaryWriteOptions): APIPromise<Beneficiary> {
    return this.api.call(
      () => this.#write('create', { method: 'POST', path: '/beneficiaries' }, body, options),
      'beneficiaries.create',
    );
  }

  /** The body checked for its rail and flattened as sent; `allowUnclassified` read from an own property. */
  #write(
    mode: BeneficiaryWrite,
    target: Pick<Call<Beneficiary>, 'method' | 'path' | 'template'>,
    body: BeneficiaryInput,
    given: BeneficiaryWriteOptions | undefined,
  ): Call<Beneficiary> {
    const options = writeOptions.read(given, `beneficiaries.${mode}`);
    const schema = beneficiaryInputSchema({ mode, allowUnclassified: options?.allowUnclassified });
    return { ...target, body: beneficiaryWire(parseRequest(schema, body)), schema: this.#schema, options };
  }

  /** GET /beneficiaries/{id} (path inferred). An unknown id rejects with a 400: see `isBeneficiaryNotFound`. */
  retrieve(id: string, options?: RequestOptions): APIPromise<Beneficiary> {
    return this.api.call(async () => {
      return { method: 'GET', ...route(TEMPLATE, { beneficiaryId: id }), schema: this.#schema, options };
    }, 'beneficiaries.retrieve');
  }

  /** GET /beneficiaries (path inferred), page by page; the rows' key is not in the spec, so it is found. */
  list(params: BeneficiaryListParams = {}, options?: RequestOptions): PagePromise<Beneficiary> {
    return this.api.list(
      {
        path: '/beneficiaries',
        shape: 'flat',
        query: () => parseRequest(BeneficiaryListParamsSchema, params),
        schema: this.#schema,
        options,
      },
      'beneficiaries.list',
    );
  }

  /**
   * PATCH /beneficiaries/{id}. The body replaces the whole beneficiary: send the complete required set for its rail.
   * Omitting `withdrawal_method` keeps the stored rail (the SDK, not knowing it, then checks only what every
   * rail shares; restate the rail to have its fields checked); null or '' clears it. Also how older records get their classification backfilled.
   */
  update(id: string, body: BeneficiaryInput, options?: BeneficiaryWriteOptions): APIPromise<Beneficiary> {
    return this.api.call(
      () =>
        this.#write('update', { method: 'PATCH', ...route(TEMPLATE, { beneficiaryId: id }) }, body, options),
      'beneficiaries.update',
    );
  }

  /**
   * DELETE /beneficiaries/{id}: permanent; resolves with nothing (the service sends an empty object). Retried
   * like any GET (`maxRetries`) after a failure the retry policy retries (408, 429, 5xx, a lost connection, a
   * timeout). An attempt that met such a failure (a 429 aside, which is a refusal) may have gone through, so a
   * 400 `Beneficiary not found` naming this id after it means the delete is done: it resolves. Without such an
   * attempt the "not found" throws (the id was never there).
   */
  delete(id: string, options?: RequestOptions): APIPromise<void> {
    return this.api.call(
      () => ({
        method: 'DELETE',
        ...route(TEMPLATE, { beneficiaryId: id }),
        select: () => undefined,
        doneOnRepeat: (error) => isBeneficiaryNotFound(error) && error.message.includes(id),
        options,
      }),
      'beneficiaries.delete',
    );
  }
}
