export function AuthCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="card w-full max-w-sm">
        <div className="mb-6 text-center">
          <div className="text-2xl font-bold text-primary">Colibrí</div>
          <h1 className="mt-2">{title}</h1>
        </div>
        {children}
      </div>
    </main>
  );
}
