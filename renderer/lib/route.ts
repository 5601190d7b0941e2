import { useSyncExternalStore } from 'react';

function subscribe(cb: () => void): () => void {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
}

/** `#/overview?x=1` -> "overview"; "" when there is no route. */
export function routeOf(hash: string): string {
  return hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
}

/** The current hash route, without a router dependency. */
export function useHashRoute(): string {
  return useSyncExternalStore(subscribe, () => routeOf(window.location.hash));
}

export function hrefOf(route: string): string {
  return `#/${route}`;
}
