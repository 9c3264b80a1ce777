// The recurrence block and the payment-reminder checkbox of the shared document form in recurring
// mode (spec part 2 §2, §5, §9). The custom unit and count show for "Personalizado" (and before a
// cycle is chosen: §9's default is every 1 day); without JavaScript they appear on the next re-render.
import { useState } from "react";
import { COMMON_CYCLES, CUSTOM_UNITS, type RecurrenceFormValues } from "../domain/recurring.ts";
import { Field } from "./form.tsx";

export function RecurrenceBlock({ values, errors }: { values: RecurrenceFormValues; errors: Record<string, string> }) {
  const [common, setCommon] = useState(values.commonCycle);
  const custom = common === "custom" || common === "";
  return (
    <section className="card space-y-3" aria-label="Recurrencia">
      <h2 className="font-semibold">Recurrencia</h2>
      <div className="grid gap-4 md:grid-cols-4">
        <Field label="Fecha de inicio" name="recurring_start_day" error={errors["recurrence.startDay"]}>
          <input id="recurring_start_day" name="recurring_start_day" type="date" className="input" defaultValue={values.startDay} aria-invalid={!!errors["recurrence.startDay"] || undefined} />
        </Field>
        <Field label="Ciclo" name="common_cycle" error={errors["recurrence.commonCycle"]}>
          <select id="common_cycle" name="common_cycle" className="input" value={common} onChange={(e) => setCommon(e.target.value)} aria-invalid={!!errors["recurrence.commonCycle"] || undefined}>
            <option value="">Seleccione</option>
            {COMMON_CYCLES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </Field>
        {custom && (
          <>
            <Field label="Cada" name="recurring_cycle" error={errors["recurrence.every"]}>
              <input id="recurring_cycle" name="recurring_cycle" className="input" inputMode="numeric" defaultValue={values.every} aria-invalid={!!errors["recurrence.every"] || undefined} />
            </Field>
            <Field label="Tipo de recurrencia" name="recurring_type" error={errors["recurrence.unit"]}>
              <select id="recurring_type" name="recurring_type" className="input" defaultValue={values.unit} aria-invalid={!!errors["recurrence.unit"] || undefined}>
                {CUSTOM_UNITS.map((u) => (
                  <option key={u.value} value={u.value}>
                    {u.label}
                  </option>
                ))}
              </select>
            </Field>
          </>
        )}
      </div>
      <label className="flex items-center gap-2">
        <input type="checkbox" name="remember_payment" defaultChecked={values.remindPayment} /> Enviar recordatorio de pago
      </label>
    </section>
  );
}
