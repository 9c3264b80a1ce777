import { useEffect, useState } from "react";
import { Field } from "./form.tsx";

export interface Place {
  number: number;
  name: string;
}

/**
 * Province → canton → district cascade (spec part 1 §4: first option selected, default ids 1).
 * Without JavaScript the lists come from the server for the submitted values and the
 * "Actualizar ubicación" button re-renders the form keeping everything typed. With JavaScript the
 * lists are refilled from /locations when a select changes and the button is hidden.
 */
export function LocationFields({
  provinces,
  cantons: initialCantons,
  districts: initialDistricts,
  values,
  errors,
}: {
  provinces: Place[];
  cantons: Place[];
  districts: Place[];
  values: { province?: string; canton?: string; district?: string };
  errors: Record<string, string | undefined>;
}) {
  const [province, setProvince] = useState(values.province || "1");
  const [canton, setCanton] = useState(values.canton || "1");
  const [district, setDistrict] = useState(values.district || "1");
  const [cantons, setCantons] = useState(initialCantons);
  const [districts, setDistricts] = useState(initialDistricts);
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);

  async function load(p: string, c?: string) {
    const res = await fetch(`/locations?province=${encodeURIComponent(p)}${c ? `&canton=${encodeURIComponent(c)}` : ""}`, { headers: { accept: "application/json" } });
    if (!res.ok) return null;
    return (await res.json()) as { cantons: Place[]; districts: Place[] };
  }

  async function onProvince(p: string) {
    setProvince(p);
    const first = await load(p);
    const c = String(first?.cantons[0]?.number ?? "");
    setCantons(first?.cantons ?? []);
    setCanton(c);
    const second = c ? await load(p, c) : null;
    setDistricts(second?.districts ?? []);
    setDistrict(String(second?.districts[0]?.number ?? ""));
  }

  async function onCanton(c: string) {
    setCanton(c);
    const next = await load(province, c);
    setDistricts(next?.districts ?? []);
    setDistrict(String(next?.districts[0]?.number ?? ""));
  }

  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <Field label="Provincia" name="province" error={errors.province}>
        <select id="province" name="province" className="input" value={province} onChange={(e) => void onProvince(e.target.value)} aria-invalid={!!errors.province || undefined}>
          {provinces.map((p) => (
            <option key={p.number} value={p.number}>
              {p.name}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Cantón" name="canton" error={errors.canton}>
        <select id="canton" name="canton" className="input" value={canton} onChange={(e) => void onCanton(e.target.value)} aria-invalid={!!errors.canton || undefined}>
          {cantons.map((c) => (
            <option key={c.number} value={c.number}>
              {c.name}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Distrito" name="district" error={errors.district}>
        <select id="district" name="district" className="input" value={district} onChange={(e) => setDistrict(e.target.value)} aria-invalid={!!errors.district || undefined}>
          {districts.map((d) => (
            <option key={d.number} value={d.number}>
              {d.name}
            </option>
          ))}
        </select>
      </Field>
      {!scripted && (
        <div className="sm:col-span-3">
          <button type="submit" name="intent" value="refresh-location" className="btn btn-outline btn-sm" formNoValidate>
            Actualizar ubicación
          </button>
        </div>
      )}
    </div>
  );
}
