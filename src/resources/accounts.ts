import { APIResource } from './resource.js';

/** Skeleton: filled in by issue 3. */
export class Accounts extends APIResource {}
