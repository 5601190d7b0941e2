import { useProfiles } from '../profiles/ProfilesContext';
import { profileGroups } from './profileGroups';

/** The header's profile choice, remembered across sessions; Overview follows it. Grouped by tag once the list is long. */
export function ProfileSelector() {
  const { profiles, selected, select, loading } = useProfiles();
  return (
    <div className="profile-selector">
      <label htmlFor="profile-select">Profile</label>
      <select id="profile-select" value={selected?.id ?? ''} disabled={profiles.length === 0} onChange={(e) => select(e.target.value)}>
        {profiles.length === 0 && <option value="">{loading ? 'Loading…' : 'No profiles'}</option>}
        {profileGroups(profiles).map((g, _, all) => {
          const options = g.profiles.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ));
          if (all.length === 1 && g.tag === undefined) return options;
          return (
            <optgroup key={g.tag ?? '\u0000untagged'} label={g.tag ?? 'Untagged'}>
              {options}
            </optgroup>
          );
        })}
      </select>
    </div>
  );
}
