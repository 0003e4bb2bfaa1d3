import { describe, expect, it } from 'vitest';
import { GET as getPage } from '@/app/docs/route';
import { GET as getScript } from '@/app/docs/api-reference.js/route';
import { CONTENT_SECURITY_POLICY } from '@/server/http/security-headers';

describe('/docs', () => {
  it('renders the OpenAPI document with a renderer served from this origin only', async () => {
    const page = getPage();
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain("Scalar.createApiReference('#app'");
    expect(html).toContain('"url":"/api/v1/openapi.json"');
    expect(html).toMatch(/<script src="\/docs\/api-reference\.js\?v=\d+\.\d+\.\d+"><\/script>/);
    // Offline and under the site's CSP: nothing is loaded from another origin (no CDN, no hosted fonts).
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).toContain('"withDefaultFonts":false');
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self' 'unsafe-inline'");
  });
  it('serves the renderer bundle itself', async () => {
    const script = getScript();
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    const body = await script.text();
    expect(body.length).toBeGreaterThan(1_000_000);
    expect(body).toContain('createApiReference');
  });
});
