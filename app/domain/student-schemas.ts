// Validation of the student form (spec part 1 §3 Student, §5 Student, §8 Students messages).
import { z } from "zod";
import { STUDENT_MESSAGES } from "./student-texts.ts";

export { STUDENT_MESSAGES };

const optionalText = (max = 160) =>
  z
    .string()
    .trim()
    .max(max, `Máximo ${max} caracteres`)
    .optional()
    .transform((v) => (v ? v : null));

export const studentSchema = z.object({
  name: z.string({ error: "El nombre es obligatorio" }).trim().min(1, "El nombre es obligatorio").max(160, "Máximo 160 caracteres"),
  surname: z.string({ error: "El apellido es obligatorio" }).trim().min(1, "El apellido es obligatorio").max(160, "Máximo 160 caracteres"),
  client_id: z
    .string({ error: "El representante es obligatorio" })
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) > 0, "El representante es obligatorio")
    .transform(Number),
  identification: optionalText(20).refine((v) => !v || /^\d+$/.test(v), "La identificación solo admite números"),
  email: optionalText().refine((v) => !v || z.email().safeParse(v).success, "Ingresa un correo válido"),
  phone: optionalText(20).refine((v) => !v || /^\d+$/.test(v), "El teléfono debe ser un número entero"),
});

export type StudentInput = z.output<typeof studentSchema>;
