// A URL that carries a login or a token sends it to the host: it asks, however it is spelled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { call, pipelineWith } from '../pipeline/pipeline-helpers.ts';

let pipeline: Pipeline;
beforeAll(async () => {
  pipeline = await pipelineWith();
});
afterAll(() => pipeline.close());

describe('credentials in a fetched URL ask', () => {
  it.each([
    'https://status.example.com/api/v1/check?token=sk_live_4f9a8b7c6d5e',
    'https://example.com/?access_token=8f3a9c2b7e1d4f6a0b5c9d8e7f6a5b4c',
    'https://example.com/v1?api_key=abc123def456',
    'https://bob:Xk29fLq83ZmP0aR7tY4u@example.com/',
    'https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1/getMe',
    'https://example.com/ghp%5Fabcdefghijklmnopqrstuvwxyz0123456789',
    // Encoded, the token is the same token to whoever decodes it.
    `https://example.com/?k=${Buffer.from('ghp_abcdefghijklmnopqrstuvwxyz0123456789').toString('base64')}`,
    `https://example.com/c/${Buffer.from('AKIAIOSFODNN7EXAMPLE').toString('base64url')}/x`,
    `https://example.com/?d=${Buffer.from('id=AKIAIOSFODNN7EXAMPLE').toString('hex')}`,
    `https://example.com/?k=${Buffer.from('-----BEGIN OPENSSH PRIVATE KEY-----').toString('base64')}`,
  ])('%s', async (url) => {
    const outcome = await pipeline.evaluate(call('web_fetch', { url }, 'check the status'));
    expect(outcome).toMatchObject({ decision: 'ask' });
    expect(outcome.reason).toMatch(/data leaves the machine/);
  });

  it.each([
    'https://example.com/search?q=token',
    'https://example.com/docs/page?page=2',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://cdn.example.com/assets/app.5f3c9a1b2d4e6f7081929394a5b6c7d8.js',
    'https://github.com/o/r/commit/a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4',
  ])('%s runs without a card', async (url) => {
    expect((await pipeline.evaluate(call('web_fetch', { url }, 'read the docs'))).decision).toBe(
      'allow',
    );
  });
});
