import { useProfiles } from '../profiles/ProfilesContext';

/** The header's profile choice, remembered across sessions; Overview follows it. */
export function ProfileSelector() {
  const { profiles, selected, select, loading } = useProfiles();
  return (
    <div className="profile-selector">
      <label htmlFor="profile-select">Profile</label>
      <select id="profile-select" value={selected?.id ?? ''} disabled={profiles.length === 0} onChange={(e) => select(e.target.value)}>
        {profiles.length === 0 && <option value="">{loading ? 'Loading…' : 'No profiles'}</option>}
        {profiles.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </div>
  );
}
