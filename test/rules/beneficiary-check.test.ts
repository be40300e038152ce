import { describe, expect, it } from 'vitest';
import { sameHolderName } from '../../src/index.js';

describe('sameHolderName: the one comparison of a holder name with the name enquiry', () => {
  it.each([
    ['ADAEZE KEMI OKAFOR', 'adaeze kemi okafor'],
    ['ADAEZE KEMI OKAFOR', '  Adaeze\tKemi\u00a0 Okafor '],
    ["O'NEIL MARY-JANE", 'oneil maryjane'],
    ['OKAFOR, ADAEZE KEMI', 'Adaeze Kemi Okafor.'],
    ['ÉMILE ZOLA', 'émile zola'],
    ['ＡＤＡ ＯＫＡＦＯＲ', 'Ada Okafor'], // full-width letters fold to ASCII (NFKC)
  ])('takes %j and %j as one holder', (a, b) => {
    expect(sameHolderName(a, b)).toBe(true);
    expect(sameHolderName(b, a)).toBe(true);
  });

  it.each([
    ['ADAEZE KEMI OKAFOR', 'EMEKA BELLO'],
    ['ADAEZE KEMI OKAFOR', 'ADAEZE OKAFOR'], // a name left out is another name: nothing guesses
    ['ADAEZE KEMI OKAFOR', 'ADAEZE KEMI OKAFOR JR'],
    ['ADA OKAFOR', 'ADA OKAFO'],
    ['EMILE ZOLA', 'ÉMILE ZOLA'], // an accent is a letter, not punctuation
    ['...', '...'], // no letter or digit: nothing to compare
    ['', ''],
  ])('tells %j from %j', (a, b) => {
    expect(sameHolderName(a, b)).toBe(false);
  });
});
