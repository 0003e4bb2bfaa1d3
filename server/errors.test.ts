import { describe, expect, it } from 'vitest';
import { AppError, toErrorBody } from './errors';

describe('toErrorBody', () => {
  it('maps an AppError to its status and the spec body', () => {
    const r = toErrorBody(new AppError('payment_required', 'Insufficient credits', { balance: 0 }), 'req_1');
    expect(r.status).toBe(402);
    expect(r.body).toEqual({ error: { code: 402, message: 'Insufficient credits', metadata: { balance: 0, error_type: 'payment_required', request_id: 'req_1' } } });
  });
  it('uses the string code for context_length_exceeded', () => {
    expect(toErrorBody(new AppError('context_length_exceeded', 'too long')).body.error.code).toBe('context_length_exceeded');
  });
  it('turns a zod validation error into a 400 that says what was wrong', async () => {
    const { z } = await import('zod');
    const r = z.object({ password: z.string().min(8, 'too short') }).safeParse({ password: 'x' });
    const out = toErrorBody(r.error);
    expect(out.status).toBe(400);
    expect(out.body.error.message).toBe('password: too short');
  });
  it('leaks nothing of an unknown error', () => {
    const r = toErrorBody(new Error('password=hunter2 at db.ts:12'));
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).not.toContain('hunter2');
  });
});
