import { LoadingBlock, Skeleton } from '@/components/console/states';

/** Shown while a console page's server part loads (client data has its own loading states). */
export default function ConsoleLoading() {
  return (
    <div className="space-y-8">
      <Skeleton className="h-8 w-48" />
      <LoadingBlock label="Loading page" rows={5} />
    </div>
  );
}
