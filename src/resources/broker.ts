import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../internal/config.js';
import { APIResource } from './resource.js';

/** A referral link from POST /broker/referral-link. */
export const ReferralLinkSchema = z.looseObject({ code: z.string(), inviteUrl: z.string() });
/** A referral link. */
export type ReferralLink = z.infer<typeof ReferralLinkSchema>;

/** Broker (referral) operations. Commissions and referred businesses: see the README's `client.paginate` recipes. */
export class Broker extends APIResource {
  /** POST /broker/referral-link: a referral link for the authenticated business. */
  createReferralLink(options?: RequestOptions): APIPromise<ReferralLink> {
    return this.api.call(
      {
        method: 'POST',
        path: '/broker/referral-link',
        schema: ReferralLinkSchema,
        options,
      },
      'broker.createReferralLink',
    );
  }
}
