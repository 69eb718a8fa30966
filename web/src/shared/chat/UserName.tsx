import { useEffect, useState } from 'react';
import { lookupUser } from './lookups';

/** A user's name from the batched lookup; the id stands in until it arrives. */
export function useUserName(userId: string | null): string | null {
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    if (!userId) return undefined;
    let current = true;
    void lookupUser(userId).then((user) => {
      if (current) setName(user?.name ?? null);
    });
    return () => {
      current = false;
    };
  }, [userId]);
  return name;
}

export function UserName({ userId }: { userId: string }) {
  return <span>{useUserName(userId) ?? userId}</span>;
}
