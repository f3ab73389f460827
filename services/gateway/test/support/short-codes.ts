import { SHORT_CODE_ALPHABET, SHORT_CODE_LENGTH, shortCodeCandidate } from '@qrshirt/core';
import { expect } from 'vitest';
import type { Then } from './api-specification';

/**
 * What gives a fundraiser its short code, in the order it is appended: the code reserved in its
 * own stream, then given to the fundraiser. A known id's code is its first candidate; a new
 * fundraiser's (a random id) is any code.
 */
export function shortCodeEvents(fundraiserId?: string): NonNullable<Then['events']> {
  const code =
    fundraiserId === undefined
      ? expect.stringMatching(new RegExp(`^[${SHORT_CODE_ALPHABET}]{${SHORT_CODE_LENGTH}}$`))
      : shortCodeCandidate(fundraiserId, 0);
  const id = fundraiserId ?? expect.any(String);
  return [
    {
      stream: fundraiserId === undefined ? expect.stringMatching(/^short-code-/) : `short-code-${code}`,
      type: 'ShortCodeReserved',
      data: { code, fundraiserId: id },
    },
    { type: 'FundraiserShortCodeAssigned', data: { fundraiserId: id, code } },
  ];
}
