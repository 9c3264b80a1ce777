export default function UnderConstruction() {
  return (
    <div className="card">
      <p className="text-slate-600">Esta sección está en construcción.</p>
    </div>
  );
}
