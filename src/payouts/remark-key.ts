/**
 * The key a remark is compared and kept unique by: Unicode NFC, runs of white space as one space, case folded.
 * A service that trims, re-spaces or re-cases a description still lists the same key.
 */
export function remarkKey(remark: string): string {
  return remark.normalize('NFC').replace(/\s+/gu, ' ').trim().toLowerCase();
}
