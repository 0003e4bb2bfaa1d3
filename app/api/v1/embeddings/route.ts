import { handleEmbeddingsRequest } from '@/server/embeddings/embeddings-transports';
import { processRuntime } from '@/server/runtime/process-runtime';

export const dynamic = 'force-dynamic';

export function POST(request: Request) {
  return handleEmbeddingsRequest(processRuntime(), request);
}
