import { createHash } from 'node:crypto';
import type { EventOf } from '@qrshirt/contracts';
import type { Decider } from '../kit/decider';

/*
 * Read off a print and typed by a person whose phone cannot scan the shirt: no 0/o, no 1/l/i.
 * Lower case as a link is usually written; upper case typed by hand is the same code. Eight of
 * 31 characters (about 40 bits) keep `PUBLIC_BASE_URL/q/<code>` at QR version 4 at level Q for a
 * base URL of up to 35 characters, and make two fundraisers' first candidates meet rarely.
 */
export const SHORT_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const SHORT_CODE_LENGTH = 8;

const SHORT_CODE = new RegExp(`^[${SHORT_CODE_ALPHABET}]{${SHORT_CODE_LENGTH}}$`);

/** A random string of the alphabet: for ids a person may have to type. */
export function randomCode(length: number, random: (below: number) => number): string {
  return Array.from({ length }, () => SHORT_CODE_ALPHABET[random(SHORT_CODE_ALPHABET.length)]).join('');
}

/**
 * The fundraiser's code candidates in order, the same in every process: two gateways giving the
 * same fundraiser its code at once reserve the same one, so neither leaves a code behind. SHA-256
 * spreads the ids evenly; 64 bits taken modulo 31^8 leave a bias of about one in ten million.
 */
export function shortCodeCandidate(fundraiserId: string, attempt: number): string {
  let value = createHash('sha256').update(`${fundraiserId}\n${attempt}`).digest().readBigUInt64BE(0);
  const base = BigInt(SHORT_CODE_ALPHABET.length);
  let code = '';
  for (let index = 0; index < SHORT_CODE_LENGTH; index += 1) {
    code += SHORT_CODE_ALPHABET[Number(value % base)];
    value /= base;
  }
  return code;
}

/** The code as stored, from what a person typed or a link carried; null when it cannot be one. */
export function normaliseShortCode(input: string): string | null {
  const code = input.trim().toLowerCase();
  return SHORT_CODE.test(code) ? code : null;
}

export const shortCodeStreamName = (code: string): string => `short-code-${code}`;

export interface ReserveShortCode {
  type: 'ReserveShortCode';
  code: string;
  fundraiserId: string;
  at: string;
}

/** The fundraiser that holds the code; null while nobody does. */
export type ShortCodeState = { fundraiserId: string } | null;

/**
 * One fundraiser per code, as `email-<key>` is one account per address: the command handler
 * appends with the revision it read, "no stream" for a free code, so of two concurrent
 * reservations one is stored and the other reserves nothing. The caller compares the holder.
 */
export const shortCodeDecider: Decider<ReserveShortCode, EventOf<'ShortCodeReserved'>, ShortCodeState> = {
  initialState: () => null,
  decide(command, state) {
    if (state) return [];
    return [
      { type: 'ShortCodeReserved', data: { code: command.code, fundraiserId: command.fundraiserId, at: command.at } },
    ];
  },
  evolve(state, event) {
    return state ?? { fundraiserId: event.data.fundraiserId };
  },
};
