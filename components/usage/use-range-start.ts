'use client';
// The start of a usage range (Usage and Activity) and the Refresh that moves it to now. The start is on a whole
// minute, so a new "now" alone changes no query within the same minute: Refresh also refetches the usage
// queries, or a request settled after the first click would stay hidden until the minute turns.
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTRPC } from '@/components/console/trpc';
import { rangeStart, type RangeValue } from './usage-filters';

export function useRangeStart(range: RangeValue): { from: string; refresh: () => void } {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [now, setNow] = useState(() => Date.now());
  const from = useMemo(() => rangeStart(range, now), [range, now]);
  const refresh = () => {
    setNow(Date.now());
    void queryClient.invalidateQueries({ queryKey: trpc.usage.pathKey() });
  };
  return { from, refresh };
}
