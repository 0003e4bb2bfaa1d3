// `aws_credentials: default`: a Bedrock provider signs with what the AWS SDK's default chain finds, as on EKS (web
// identity, IRSA), ECS (the task role's credentials endpoint) or EC2, and refreshes it before it expires. Through the
// gateway (node:http harness) against the fake Bedrock, which checks every SigV4 signature and session token, with:
// - a fake ECS credentials endpoint (AWS_CONTAINER_CREDENTIALS_FULL_URI + AWS_CONTAINER_AUTHORIZATION_TOKEN), which
//   refuses a request without the token, as ECS does;
// - a fake STS answering AssumeRoleWithWebIdentity (AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN, AWS_ENDPOINT_URL_STS)
//   in STS's XML, which refuses a token other than the one in the file.
// No static variables are set, and instance metadata is off (AWS_EC2_METADATA_DISABLED), so nothing else can serve.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { describeEachDatabase } from '@/test/db';
import { startFakeBedrock, type FakeBedrock } from '@/test/fake-bedrock';
import { startFakeUpstream, type FakeUpstream } from '@/test/fake-upstream';
import { fundedUser, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

const CLAUDE = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const ECS_TOKEN = 'ecs-authorization-token-1';
const WEB_IDENTITY_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.irsa-service-account-token.sig';
const ROLE_ARN = 'arn:aws:iam::123456789012:role/switchboard-bedrock';

interface Issued {
  accessKeyId: string;
  secret: string;
  sessionToken: string;
  expiresInMs: number;
}

describeEachDatabase('bedrock with the AWS default credential chain', () => {
  let h: GatewayHarness;
  let key: string;
  let bedrock: FakeBedrock;
  let ecs: FakeUpstream;
  let sts: FakeUpstream;
  let dir: string;
  /** What the ECS endpoint and STS hand out next (what they were asked is in their `requests`). */
  let ecsIssues: Issued;
  let stsIssues: Issued;
  /** The credentials the fake Bedrock accepts: what the ECS endpoint and STS have issued. */
  const accepted: Record<string, { secret: string; sessionToken?: string }> = {};
  const stsForms = () => sts.requests.map((r) => new URLSearchParams(r.rawBody));

  const issue = (i: Issued) => {
    accepted[i.accessKeyId] = { secret: i.secret, sessionToken: i.sessionToken };
    return new Date(Date.now() + i.expiresInMs).toISOString();
  };
  const config = (): RoutingFileInput => ({
    providers: [{ id: 'bedrock', type: 'bedrock', base_url: bedrock.url, region: 'us-west-2', aws_credentials: 'default' }],
    models: [{ id: 'test/claude', name: 'Claude on Bedrock', context_length: 200_000, max_output_tokens: 4_000, endpoints: [{ provider: 'bedrock', upstream_model: CLAUDE, pricing: { input: 3, output: 15 } }] }],
  });
  const post = () =>
    fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'test/claude', messages: [{ role: 'user', content: 'hi' }], stream: false, max_tokens: 50 }),
    });
  const signedWith = () => {
    const auth = bedrock.requests.at(-1)?.auth;
    return auth?.kind === 'sigv4' ? auth.accessKeyId : null;
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sb-aws-chain-'));
    bedrock = await startFakeBedrock({
      credentials: accepted,
      region: 'us-west-2',
      respond: () => ({ json: { output: { message: { role: 'assistant', content: [{ text: 'Hello from Bedrock.' }] } }, stopReason: 'end_turn', usage: { inputTokens: 5, outputTokens: 4, totalTokens: 9 } } }),
    });
    ecs = await startFakeUpstream((req) => {
      if (req.headers.authorization !== ECS_TOKEN) return { status: 401, text: 'unauthorized' };
      const expiration = issue(ecsIssues);
      return { status: 200, json: { AccessKeyId: ecsIssues.accessKeyId, SecretAccessKey: ecsIssues.secret, Token: ecsIssues.sessionToken, Expiration: expiration, RoleArn: ROLE_ARN } };
    });
    const xml = { 'content-type': 'text/xml' };
    sts = await startFakeUpstream((req) => {
      const form = new URLSearchParams(req.rawBody);
      if (form.get('Action') !== 'AssumeRoleWithWebIdentity' || form.get('WebIdentityToken') !== WEB_IDENTITY_TOKEN || form.get('RoleArn') !== ROLE_ARN) {
        return { status: 400, headers: xml, text: '<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>InvalidIdentityToken</Code><Message>Couldn\'t retrieve verification key from your identity provider</Message></Error><RequestId>1</RequestId></ErrorResponse>' };
      }
      const expiration = issue(stsIssues);
      return {
        status: 200,
        headers: xml,
        text: `<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>${stsIssues.accessKeyId}</AccessKeyId><SecretAccessKey>${stsIssues.secret}</SecretAccessKey><SessionToken>${stsIssues.sessionToken}</SessionToken><Expiration>${expiration}</Expiration></Credentials><SubjectFromWebIdentityToken>system:serviceaccount:ai:switchboard</SubjectFromWebIdentityToken><AssumedRoleUser><Arn>${ROLE_ARN}/switchboard</Arn><AssumedRoleId>AROAEXAMPLE:switchboard</AssumedRoleId></AssumedRoleUser><Provider>oidc.eks.us-west-2.amazonaws.com/id/EXAMPLE</Provider><Audience>sts.amazonaws.com</Audience></AssumeRoleWithWebIdentityResult><ResponseMetadata><RequestId>req-1</RequestId></ResponseMetadata></AssumeRoleWithWebIdentityResponse>`,
      };
    });
    h = await startGatewayHarness({ routing: { config: config(), database: false } });
    key = (await fundedUser(10)).key;
  });
  afterAll(async () => {
    await h?.close();
    await bedrock?.close();
    await ecs?.close();
    await sts?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    for (const name of Object.keys(process.env)) if (name.startsWith('AWS_')) delete process.env[name];
    process.env.AWS_EC2_METADATA_DISABLED = 'true';
    process.env.AWS_CONFIG_FILE = path.join(dir, 'no-config');
    process.env.AWS_SHARED_CREDENTIALS_FILE = path.join(dir, 'no-credentials');
    ecs.requests.length = 0;
    sts.requests.length = 0;
    bedrock.requests.length = 0;
  });

  it("an ECS task role: signs with the endpoint's temporary credentials, reuses them, and fetches new ones before they expire", async () => {
    process.env.AWS_CONTAINER_CREDENTIALS_FULL_URI = `${ecs.url}/v2/credentials/task`;
    process.env.AWS_CONTAINER_AUTHORIZATION_TOKEN = ECS_TOKEN;
    await h.renewRuntime({ routing: { config: config(), database: false } });
    ecsIssues = { accessKeyId: 'ASIAECSTASKROLE00001', secret: 'ecs/secret/one', sessionToken: 'ecs-session-1', expiresInMs: 60 * 60_000 };

    expect((await post()).status).toBe(200);
    expect(signedWith()).toBe('ASIAECSTASKROLE00001');
    expect(bedrock.requests.at(-1)!.headers['x-amz-security-token']).toBe('ecs-session-1');
    expect((await post()).status).toBe(200);
    expect(ecs.requests).toHaveLength(1); // cached while they are good for more than five minutes

    // Credentials with less than five minutes left are renewed in the background: the request that notices still
    // signs with them (they are valid), and the ones after it with the new credentials. No request waits for it.
    await h.renewRuntime({ routing: { config: config(), database: false } });
    ecs.requests.length = 0;
    ecsIssues = { accessKeyId: 'ASIAECSTASKROLE00002', secret: 'ecs/secret/two', sessionToken: 'ecs-session-2', expiresInMs: 4 * 60_000 };
    expect((await post()).status).toBe(200);
    expect(signedWith()).toBe('ASIAECSTASKROLE00002');
    ecsIssues = { accessKeyId: 'ASIAECSTASKROLE00003', secret: 'ecs/secret/three', sessionToken: 'ecs-session-3', expiresInMs: 60 * 60_000 };
    expect((await post()).status).toBe(200);
    expect(signedWith()).toBe('ASIAECSTASKROLE00002');
    await expect.poll(() => ecs.requests.length).toBe(2);
    await expect.poll(async () => ((await post()).status === 200 ? signedWith() : 'refused')).toBe('ASIAECSTASKROLE00003');
    expect(ecs.requests).toHaveLength(2);
    expect(bedrock.refused).toEqual([]);
  });

  it('web identity (EKS IRSA): assumes the role with the token file through STS and signs with the role', async () => {
    const tokenFile = path.join(dir, 'token');
    writeFileSync(tokenFile, WEB_IDENTITY_TOKEN);
    process.env.AWS_WEB_IDENTITY_TOKEN_FILE = tokenFile;
    process.env.AWS_ROLE_ARN = ROLE_ARN;
    process.env.AWS_ROLE_SESSION_NAME = 'switchboard';
    process.env.AWS_ENDPOINT_URL_STS = sts.url;
    await h.renewRuntime({ routing: { config: config(), database: false } });
    stsIssues = { accessKeyId: 'ASIAIRSAROLE00000001', secret: 'irsa/secret/one', sessionToken: 'irsa-session-1', expiresInMs: 60 * 60_000 };

    const res = await post();
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as any).choices[0].message.content).toBe('Hello from Bedrock.');
    expect(signedWith()).toBe('ASIAIRSAROLE00000001');
    expect(stsForms()).toHaveLength(1);
    expect(stsForms()[0].get('RoleSessionName')).toBe('switchboard');
  });

  it('nothing in the chain: a 503 that says where the credentials were looked for, and no request reaches Bedrock', async () => {
    await h.renewRuntime({ routing: { config: config(), database: false } });
    const res = await post();
    expect(res.status).toBe(503);
    const body = (await res.json()) as any;
    expect(body.error.message).toMatch(/could not get AWS credentials from the default chain/);
    expect(bedrock.requests).toHaveLength(0);
  });
});
