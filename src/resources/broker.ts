import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../internal/request-options.js';
import { looseObject } from '../rules/schema.js';
import { APIResource } from './resource.js';

/** A referral link from POST /broker/referral-link. */
export const ReferralLinkSchema = looseObject({
  /** The referral code. */
  code: z.string(),
  /** The link to send to the business you refer. */
  inviteUrl: z.string(),
});
/** A referral link. */
export type ReferralLink = z.infer<typeof ReferralLinkSchema>;

/** Broker (referral) operations. Commissions and referred businesses: see `client.paginate` in docs/endpoints.md. */
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
