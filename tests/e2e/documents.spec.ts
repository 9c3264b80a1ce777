import fs from "node:fs";
import JSZip from "jszip";
import { DEMO_PASSWORD } from "./fixtures.ts";
import { claveOf, expect, expectAccepted, expectAcceptedAndMailed, expectDocumentFiles, expectToast, fillLine, newClient, projectOf, signIn, test } from "./helpers.ts";

test("the demo admin issues an invoice with two lines and lands on its detail page", async ({ page }, info) => {
  // It waits for the jobs, the simulator and the e-mail, each with its own limit below.
  test.setTimeout(180_000);
  const p = projectOf(info);
  const name = `Cliente Factura ${p}`;
  const identification = p === "js" ? "109870661" : "109870662";
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);

  // A client to invoice (the demo company starts with the generic client only).
  await newClient(page, { name, identification, email: "factura@example.cr" });

  await page.goto("/new-invoice");
  await page.getByLabel("Cliente", { exact: true }).selectOption({ label: `${name} (${identification})` });
  await fillLine(page, 1, { cabys: "4523000000100", description: "Computadora portátil 14 pulgadas", quantity: "2", price: "450000", tax: "IVA 13%" });
  await page.getByLabel("Descuento (línea 1)").fill("5");
  await page.getByRole("button", { name: "Agregar línea" }).click();
  // The re-render keeps what was typed and adds the second row.
  await expect(page.getByLabel("Descripción (línea 2)")).toBeVisible();
  await expect(page.getByLabel("Descripción (línea 1)")).toHaveValue("Computadora portátil 14 pulgadas");
  await fillLine(page, 2, { cabys: "8313100000000", description: "Horas de consultoría en sistemas", quantity: "10", price: "25000", tax: "IVA 4%" });
  // With JavaScript the totals follow what is typed; without it, 'Recalcular' asks for them.
  if (!info.project.use.javaScriptEnabled) await page.getByRole("button", { name: "Recalcular" }).click();
  await expect(page.getByTestId("document-total")).toHaveText("₡1.226.150,00");
  // On credit, with a term of the company's own ('Nuevo plazo'); the lines typed stay.
  const days = p === "js" ? "21" : "22";
  await page.getByLabel("Condición de venta", { exact: true }).selectOption({ label: "Crédito" });
  if (!info.project.use.javaScriptEnabled) await page.getByRole("button", { name: "Recalcular" }).click();
  await page.getByText("Nuevo plazo").click();
  await page.locator("#new_term_name").fill(`${days} días naturales`);
  await page.locator("#new_term_days").fill(days);
  await page.getByRole("button", { name: "Agregar plazo" }).click();
  await expect(page.getByLabel("Plazo de crédito")).toHaveValue(days);
  await expect(page.getByLabel("Descripción (línea 2)")).toHaveValue("Horas de consultoría en sistemas");
  const since = Date.now();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Factura guardada con exito");
  await expect(page).toHaveURL(/\/detail\/invoice\/\d+$/);

  // The jobs send it to the local Hacienda simulator, which accepts it; the client then gets the
  // e-mail with the PDF, the signed XML and Hacienda's answer; the same files download from the
  // detail page and its public link opens for anyone.
  await expectAcceptedAndMailed(page, "factura@example.cr", since);
  const clave = await claveOf(page);
  await expectDocumentFiles(page);

  // 'Descargar XML y PDF' on /companies: every document of the company in one ZIP, a download (not a page).
  await page.goto("/companies");
  const row = page.locator("tr", { hasText: "Colibrí Demo S.A." });
  const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("link", { name: "Descargar XML y PDF" }).click()]);
  expect(download.suggestedFilename()).toBe("documentos-3101123456.zip");
  const zip = await JSZip.loadAsync(fs.readFileSync((await download.path())!));
  const names = Object.keys(zip.files);
  for (const name of [`fe/${clave}.xml`, `fe/${clave}_respuesta.xml`, `fe/${clave}.pdf`]) expect(names).toContain(name);
  expect(await zip.files[`fe/${clave}.xml`].async("string")).toContain(`<Clave>${clave}</Clave>`);
});

test("a ticket to the generic client: errors keep what was typed, then 'Guardar e imprimir' saves it (accepted) and starts over; a ticket to a named client reaches its mailbox", async ({ page }, info) => {
  test.setTimeout(180_000);
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await page.goto("/new-ticket");
  await expect(page.getByLabel("Cliente", { exact: true })).toHaveValue(/\d+/);
  await fillLine(page, 1, { cabys: "8313100000000", description: "Soporte técnico", quantity: "0", price: "15000", tax: "IVA 13%" });
  await page.getByLabel("Nota").fill("Pagado en caja");
  await page.getByRole("button", { name: "Guardar", exact: true }).click();
  await expect(page.getByText("La cantidad debe estar entre 0,1 y 100.000.")).toBeVisible();
  await expect(page.getByLabel("Descripción (línea 1)")).toHaveValue("Soporte técnico");
  await expect(page.getByLabel("Nota")).toHaveValue("Pagado en caja");
  await page.getByLabel("Cantidad (línea 1)").fill("1");
  // 'Guardar e imprimir': a fresh form for the next sale that prints the saved ticket (by itself
  // after 1 s with JavaScript, through the link without it).
  const generic = await page.getByLabel("Cliente", { exact: true }).inputValue();
  await page.getByRole("button", { name: "Guardar e imprimir" }).click();
  await expectToast(page, "Tiquete guardado con exito");
  await expect(page).toHaveURL(/\/new-ticket\?printed=\d+$/);
  await expect(page.locator("[data-printed-ticket]")).toContainText("guardado");
  await expect(page.getByLabel("Cliente", { exact: true })).toHaveValue(generic);
  await expect(page.getByLabel("Descripción (línea 1)")).toHaveValue("");
  const id = /printed=(\d+)/.exec(page.url())![1];
  await expect(page.locator("[data-printed-ticket]").getByRole("link", { name: "Imprimir" })).toHaveAttribute("href", `/detail/ticket/${id}/print`);
  if (info.project.use.javaScriptEnabled) await expect(page.locator(`iframe[src="/detail/ticket/${id}/print"]`)).toHaveCount(1);
  await page.goto(`/detail/ticket/${id}`);
  await expectAccepted(page);

  // The client of the invoice journey above (same project) buys with a ticket.
  const p = projectOf(info);
  await page.goto("/new-ticket");
  await page.getByLabel("Cliente", { exact: true }).selectOption({ label: `Cliente Factura ${p} (${p === "js" ? "109870661" : "109870662"})` });
  await fillLine(page, 1, { cabys: "8313100000000", description: "Soporte técnico remoto", quantity: "2", price: "15000", tax: "IVA 13%" });
  const since = Date.now();
  await page.getByRole("button", { name: "Guardar", exact: true }).click();
  await expectToast(page, "Tiquete guardado con exito");
  await expectAcceptedAndMailed(page, "factura@example.cr", since);
  await expectDocumentFiles(page);
});

test("an invoice with an exonerated line and a reference to a dispatch note is accepted", async ({ page }, info) => {
  test.setTimeout(120_000);
  const p = projectOf(info);
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await page.goto("/new-invoice");
  // The client of the first journey of this file (same project).
  await page.getByLabel("Cliente", { exact: true }).selectOption({ label: `Cliente Factura ${p} (${p === "js" ? "109870661" : "109870662"})` });
  await fillLine(page, 1, { cabys: "8313100000000", description: "Consultoría exonerada", quantity: "1", price: "100000", tax: "IVA 13%" });

  // The exoneration and the reference are disclosures: they open without JavaScript too.
  await page.getByText("Exoneración (línea 1)").click();
  await page.getByLabel("Tipo de exoneración (línea 1)").selectOption("03");
  await page.getByLabel("Número de exoneración (línea 1)").fill("AL-00012345-26");
  await page.getByLabel("Institución (línea 1)").selectOption("01");
  await page.getByLabel("Fecha de emisión (línea 1)").fill("2026-01-15");
  await page.getByLabel("Porcentaje exonerado (línea 1)").fill("13");
  await page.getByRole("button", { name: "Recalcular" }).click();
  await expect(page.getByTestId("document-exonerated")).toHaveText("₡13.000,00");
  await expect(page.getByTestId("document-total")).toHaveText("₡100.000,00");

  await page.getByText("Documento de referencia", { exact: true }).click();
  await page.getByLabel("Tipo de documento de referencia").selectOption("05");
  await page.getByLabel("Número del documento de referencia").fill(`DESP-${p}`);
  await page.getByLabel("Fecha del documento de referencia").fill("2026-11-02");
  await page.getByLabel("Razón").fill("Entrega según nota de despacho");
  await page.getByRole("button", { name: "Guardar", exact: true }).click();
  await expectToast(page, "Factura guardada con exito");
  await expect(page).toHaveURL(/\/detail\/invoice\/\d+$/);
  await expectAccepted(page);
});
