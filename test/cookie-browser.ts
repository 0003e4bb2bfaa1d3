// Test support: a browser as far as sign-in flows need one — cookies per host:port, redirects followed by hand
// (so a test can stop at, read or alter any hop). Used by the OAuth and SSO sign-in tests.
/** A browser's cookies, per host:port (paths and expiry beyond deletion do not matter here). */
export class Browser {
  private jars = new Map<string, Map<string, string>>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const jar = this.jars.get(target.host) ?? new Map<string, string>();
    this.jars.set(target.host, jar);
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now()));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }

  snapshot(host: string): Map<string, string> {
    return new Map(this.jars.get(host));
  }

  restore(host: string, cookies: Map<string, string>): void {
    this.jars.set(host, new Map(cookies));
  }

  /** Follows redirects from `res` until one leaves the sign-in machinery; returns the last response and URL. */
  async follow(res: Response, from: string, stopAt: (url: URL) => boolean): Promise<{ res: Response; url: URL; visited: URL[] }> {
    let url = new URL(from);
    const visited: URL[] = [];
    for (let hops = 0; hops < 20 && res.status >= 300 && res.status < 400; hops++) {
      url = new URL(res.headers.get('location')!, url);
      visited.push(url);
      if (stopAt(url)) return { res, url, visited };
      res = await this.fetch(url.toString());
    }
    return { res, url, visited };
  }
}
