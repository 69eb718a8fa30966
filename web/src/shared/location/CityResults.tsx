import { useAsyncData } from '../hooks/useAsyncData';
import { Loading } from '../ui/Loading';
import { searchCities, type City } from './cityApi';

/** Cities whose names start with `query`, largest first; a click chooses one. */
export function CityResults({ query, onChoose }: { query: string; onChoose: (city: City) => void }) {
  const cities = useAsyncData(query, (signal) => searchCities(query, signal));
  if (cities.status === 'loading') return <Loading height={64} />;
  if (cities.status === 'error') return <p className="text-sm text-red-600">Could not search cities.</p>;
  if (cities.data.cities.length === 0) return <p className="text-sm text-slate-500">No city found.</p>;
  return (
    <ul aria-label="Cities" className="divide-y divide-slate-100 overflow-hidden rounded-2xl bg-white ring-1 ring-slate-200">
      {cities.data.cities.map((city) => (
        <li key={city.geonameid}>
          <button type="button" onClick={() => onChoose(city)} className="flex w-full items-baseline gap-2 px-4 py-3 text-left hover:bg-slate-50">
            <span className="font-medium text-slate-900">{city.name}</span>
            <span className="text-sm text-slate-500">{city.country}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
