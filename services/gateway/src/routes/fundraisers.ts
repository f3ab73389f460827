import { createHash } from 'node:crypto';
import { createFundraiserRequest, donateRequest, type Fundraiser, idParams, qrCodeQuery } from '@qrshirt/contracts';
import {
  charityDecider,
  charityStreamName,
  findKeyedDonation,
  type FundraiserState,
  fundraiserDecider,
  fundraiserStreamName,
  shirtDecider,
  shirtStreamName,
} from '@qrshirt/core';
import { type Request, type RequestHandler, Router } from 'express';
import { LRUCache } from 'lru-cache';
import { requireSignedIn } from '../auth/authenticate';
import { HttpError, notFound } from '../http/http-error';
import { parseInput } from '../http/validate';
import { createFundraiserQrCodes, type QrFormat, qrContentTypes } from '../qr/fundraiser-qr';
import type { RouteDeps } from './route-deps';

const MAX_IDEMPOTENCY_KEY = 200;

function toFundraiser(
  state: Pick<FundraiserState, 'fundraiserId' | 'userId' | 'charityId' | 'shirtId' | 'name'>,
): Fundraiser {
  return {
    id: state.fundraiserId,
    userId: state.userId,
    charityId: state.charityId,
    shirtId: state.shirtId,
    name: state.name,
  };
}

/**
 * The same fundraiser and key always give the same donation id, so two concurrent retries
 * produce the same event id and the store keeps one of them.
 */
function donationIdFor(fundraiserId: string, idempotencyKey: string): string {
  const hex = createHash('sha256').update(`${fundraiserId}\u0000${idempotencyKey}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function idempotencyKeyOf(req: Request): string | null {
  const key = req.get('idempotency-key')?.trim();
  if (key === undefined || key === '') return null;
  if (key.length > MAX_IDEMPOTENCY_KEY)
    throw new HttpError(400, `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY} characters`);
  return key;
}

/*
 * A QR code depends only on the fundraiser id, which never changes, and PUBLIC_BASE_URL: a day in
 * caches is how long a changed base URL may take to show.
 */
const QR_CACHE_CONTROL = 'public, max-age=86400';

/**
 * `scans` holds the scanners' route, the busiest by far: it takes no body and no identity, so the
 * app mounts it ahead of body parsing and token checks (an expired token never costs a scan).
 * Both routers share one cache of known fundraisers.
 */
export function fundraiserRoutes({ commands, fundraisers, ingestion, clock, newId, publicBaseUrl }: RouteDeps): {
  scans: Router;
  others: Router;
} {
  // A fundraiser never changes once created: the scan and read paths look each one up once.
  const known = new LRUCache<string, Fundraiser>({ max: 50_000 });
  const qrCodes = createFundraiserQrCodes(publicBaseUrl);

  /** The read model first; the event log when the projection has not caught up yet. */
  async function findFundraiser(id: string): Promise<Fundraiser | null> {
    const projected = await fundraisers.getFundraiser(id);
    if (projected) return toFundraiser({ ...projected, fundraiserId: projected.id });
    const state = await commands.loadState(fundraiserStreamName(id), fundraiserDecider);
    return state && toFundraiser(state);
  }

  async function requireFundraiser(id: string): Promise<Fundraiser> {
    const cached = known.get(id);
    if (cached) return cached;
    const fundraiser = await findFundraiser(id);
    if (!fundraiser) throw notFound('Fundraiser');
    known.set(id, fundraiser);
    return fundraiser;
  }

  function qrCode(format: QrFormat): RequestHandler {
    return async (req, res) => {
      const { id } = parseInput(idParams, req.params);
      const { download } = parseInput(qrCodeQuery, req.query);
      await requireFundraiser(id);
      const image = await qrCodes.image(id, format);
      // Ids are letters, digits, '-' and '_' (idParams): a file name as they are.
      if (download === '1' || download === 'true') res.attachment(`fundraiser-${id}-qr.${format}`);
      // After attachment(), which would set a content type of its own from the file name.
      res.set('Content-Type', qrContentTypes[format]).set('Cache-Control', QR_CACHE_CONTROL).send(image);
    };
  }

  const scans = Router().post('/api/fundraisers/:id/scan', async (req, res) => {
    const { id } = parseInput(idParams, req.params);
    await requireFundraiser(id);
    const scanId = newId();
    await ingestion.recordScan({ scanId, fundraiserId: id, at: clock().toISOString() });
    res.status(202).json({ scanId });
  });

  const others = Router()
    .post('/api/fundraisers', requireSignedIn, async (req, res) => {
      const input = parseInput(createFundraiserRequest, req.body);
      const [charity, shirt] = await Promise.all([
        commands.loadState(charityStreamName(input.charityId), charityDecider),
        commands.loadState(shirtStreamName(input.shirtId), shirtDecider),
      ]);
      const fundraiserId = newId();
      const { state } = await commands.handle(fundraiserStreamName(fundraiserId), fundraiserDecider, () => ({
        type: 'CreateFundraiser',
        fundraiserId,
        userId: req.user!.uid,
        charity,
        shirt,
        ...(input.name !== undefined && { name: input.name }),
        at: clock().toISOString(),
      }));
      const created = toFundraiser(state!);
      known.set(fundraiserId, created);
      res.status(201).json(created);
    })
    .get('/api/fundraisers/:id', async (req, res) => {
      const { id } = parseInput(idParams, req.params);
      res.json(await requireFundraiser(id));
    })
    .post('/api/fundraisers/:id/donate', async (req, res) => {
      const { id } = parseInput(idParams, req.params);
      const input = parseInput(donateRequest, req.body);
      const idempotencyKey = idempotencyKeyOf(req);
      const donationId = idempotencyKey ? donationIdFor(id, idempotencyKey) : newId();
      const { events, state } = await commands.handle(
        fundraiserStreamName(id),
        fundraiserDecider,
        () => ({
          type: 'RecordDonation',
          donationId,
          amount: input.amount,
          idempotencyKey,
          source: input.source ?? 'widget',
          at: clock().toISOString(),
        }),
        { eventId: () => donationId },
      );
      const recorded = events[0]?.type === 'DonationRecorded' ? events[0].data : undefined;
      const earlier = idempotencyKey ? findKeyedDonation(state!, idempotencyKey) : undefined;
      const amountCents = recorded?.amountCents ?? earlier?.amountCents ?? 0;
      res.status(recorded ? 201 : 200).json({
        id: recorded?.donationId ?? earlier?.donationId ?? donationId,
        fundraiserId: id,
        amount: amountCents / 100,
        currency: 'USD',
      });
    })
    .get('/api/fundraisers/:id/stats', async (req, res) => {
      const { id } = parseInput(idParams, req.params);
      if (!req.user) throw new HttpError(401, 'Authentication required for this request');
      const fundraiser = await requireFundraiser(id);
      if (req.user.anonymous || req.user.uid !== fundraiser.userId) {
        throw new HttpError(403, 'Only the owner of this fundraiser can see its stats');
      }
      res.json(await fundraisers.getStats(id));
    })
    .get('/api/fundraisers/:id/qr.svg', qrCode('svg'))
    .get('/api/fundraisers/:id/qr.png', qrCode('png'));
  return { scans, others };
}
