export default function Pending() {
  return <div className="card">Esta sección está en construcción.</div>;
}
