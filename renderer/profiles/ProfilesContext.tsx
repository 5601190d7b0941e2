import { createContext, useContext, useState, type ReactNode } from 'react';
import type { CallOutput } from '../../app/contract';
import type { AppError } from '../../app/errors';
import type { ProfileView } from '../../app/schemas/connections';
import { useCall } from '../bridge/useCall';
import { readStored, writeStored } from '../lib/storage';

type ListOutput = CallOutput<'connections.list'>;

export interface Profiles {
  profiles: ProfileView[];
  passwordStorage: ListOutput['passwordStorage'] | undefined;
  loading: boolean;
  error: AppError | undefined;
  refresh(): void;
  /** The profile the header selector points at: the remembered one, else the first. */
  selected: ProfileView | undefined;
  select(id: string): void;
}

const STORAGE_KEY = 'cacheboard.profileId';
const Ctx = createContext<Profiles | null>(null);

/** One `connections.list` for the whole shell: the header selector, Connections and Overview share it. */
export function ProfilesProvider({ children }: { children: ReactNode }) {
  const list = useCall('connections.list', {});
  const [chosen, setChosen] = useState(() => readStored(STORAGE_KEY));
  const profiles = list.data?.profiles ?? [];
  const selected = profiles.find((p) => p.id === chosen) ?? profiles[0];
  const value: Profiles = {
    profiles,
    passwordStorage: list.data?.passwordStorage,
    loading: list.loading,
    error: list.error,
    refresh: list.refresh,
    selected,
    select: (id) => {
      setChosen(id);
      writeStored(STORAGE_KEY, id);
    },
  };
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useProfiles(): Profiles {
  const p = useContext(Ctx);
  if (p === null) throw new Error('useProfiles must be used inside <ProfilesProvider>');
  return p;
}
