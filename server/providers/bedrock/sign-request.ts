// AWS Signature Version 4 over the final request (docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv.html),
// computed by AWS's own signer: service `bedrock`, the provider's region, the body's SHA-256.
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { UpstreamRequest } from '@/server/providers/types';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** @param credentials fixed credentials, or a provider the signer asks before each signature (it caches and refreshes). */
/** Temporary credentials from a source (the AWS SDK's default chain), asked for each signature. */
export type AwsCredentialsProvider = () => Promise<AwsCredentials & { expiration?: Date }>;

export function createSigner(region: string, credentials: AwsCredentials | AwsCredentialsProvider): SignatureV4 {
  return new SignatureV4({ service: 'bedrock', region, credentials, sha256: Sha256 });
}

/**
 * Signs the request as it will be sent. The URL's path is passed encoded once (the model id segment as
 * encodeURIComponent left it) and the signer encodes it again for the canonical request, as AWS expects of
 * every service but S3. `host` is set explicitly: it must be signed, and undici sends the value given here.
 */
export async function signRequest(signer: SignatureV4, request: UpstreamRequest, signingDate?: Date): Promise<UpstreamRequest> {
  const url = new URL(request.url);
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, name) => (query[name] = value));
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: url.pathname,
      query,
      headers: { ...request.headers, host: url.host },
      body: request.body,
    },
    signingDate ? { signingDate } : {},
  );
  return { ...request, headers: signed.headers as Record<string, string> };
}
