import { useRef, useState, type FormEvent } from "react";
import { Link, Navigate, useSearchParams } from "react-router";
import { Trophy } from "lucide-react";
import { FAIR_PLAY } from "@common/messages";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/input";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { PageSpinner } from "@/components/ui/spinner";
import { TurnstileWidget, useBotCheckSiteKey, type TurnstileHandle } from "@/components/turnstile-widget";
import { ApiError, errorMessage } from "@/lib/api";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";
import { toast } from "@/lib/toast";
import { useLogin, useRegister } from "./api";
import { useUser } from "@/lib/session";
import { RETURN_PARAM, safeReturnPath } from "@/lib/return-to";

// The forms' rules (zod schemas) load when a form is first touched, not with the page: a visitor's
// first view of /auth needs only the fields, and zod is a quarter of the page's download.
const loadRules = () => import("@common/api/accounts");

export default function AuthPage() {
  const { user, isLoading } = useUser();
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "register" ? "register" : "login";
  // Where the player was going (a page that asked them to sign in); only a path on this site.
  const next = params.get(RETURN_PARAM);

  if (isLoading) return <PageSpinner />;
  if (user) return <Navigate to={safeReturnPath(next)} replace />;

  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 md:grid-cols-2 md:py-16">
      <div>
        <Link to="/" className="text-sm text-muted-foreground hover:text-foreground">
          ← Return to Home
        </Link>
        <Card className="mt-4">
          <CardHeader>
            <CardTitle className="text-2xl">Welcome to Trivia Arena</CardTitle>
            <CardDescription>Sign in to your account or create a new one.</CardDescription>
          </CardHeader>
          <CardContent>
            <Tabs
              value={tab}
              onValueChange={(v) =>
                setParams(
                  { ...(v === "register" ? { tab: "register" } : {}), ...(next ? { [RETURN_PARAM]: next } : {}) },
                  { replace: true },
                )
              }
            >
              <TabsList className="grid w-full grid-cols-2">
                <TabsTrigger value="login">Login</TabsTrigger>
                <TabsTrigger value="register">Register</TabsTrigger>
              </TabsList>
              <TabsContent value="login">
                <LoginForm />
              </TabsContent>
              <TabsContent value="register">
                <RegisterForm />
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>
      </div>
      <div className="hidden flex-col justify-center rounded-2xl bg-gradient-to-br from-violet-700 to-indigo-900 p-10 text-white md:flex">
        <Trophy className="mb-6 h-12 w-12" aria-hidden />
        <h2 className="text-3xl font-bold">Test your knowledge. Win real prizes.</h2>
        <p className="mt-4 text-violet-100">
          Compete in live trivia tournaments on everything from History to Science. Answer fast, climb the leaderboard, level up and gain
          access to higher stakes.
        </p>
      </div>
    </div>
  );
}

function LoginForm() {
  const login = useLogin();
  const [values, setValues] = useState({ username: "", password: "", totpCode: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [needsCode, setNeedsCode] = useState(false);
  // Asked by the server once the account is past its budget of wrong passwords (bot_check_required).
  const siteKey = useBotCheckSiteKey();
  const [needsBotCheck, setNeedsBotCheck] = useState(false);
  const [botToken, setBotToken] = useState<string | null>(null);
  const botCheck = useRef<TurnstileHandle>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { loginSchema } = await loadRules();
    const input = needsCode ? values : { username: values.username, password: values.password };
    const v = validate(loginSchema, input);
    const botMissing = needsBotCheck && siteKey !== null && botToken === null;
    setErrors({ ...v.errors, ...(botMissing ? { turnstile: FAIR_PLAY.botCheckPending } : {}) });
    if (!v.data || botMissing) return;
    login.mutate(botToken !== null ? { ...v.data, turnstileToken: botToken } : v.data, {
      onSuccess: (user) => toast.success("Login successful", `Welcome back, ${user.username}!`),
      onError: (error) => {
        // A token is spent on the attempt it came with, whatever went wrong.
        if (botToken !== null) {
          setBotToken(null);
          botCheck.current?.reset();
        }
        if (error instanceof ApiError && error.code === "bot_check_required" && siteKey !== null) {
          setNeedsBotCheck(true);
          setErrors({ turnstile: error.message });
          return;
        }
        if (error instanceof ApiError && error.code === "two_factor_required" && !needsCode) {
          setNeedsCode(true);
          return;
        }
        toast.error("Login failed", errorMessage(error));
      },
    });
  };

  const set = (k: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [k]: e.target.value });
  return (
    <form onSubmit={(e) => void submit(e)} onFocus={() => void loadRules()} className="space-y-4" noValidate>
      <Field id="login-username" label="Username" error={errors.username}>
        <Input
          id="login-username"
          autoComplete="username"
          value={values.username}
          onChange={set("username")}
          {...invalidProps("login-username", errors.username)}
        />
      </Field>
      <Field id="login-password" label="Password" error={errors.password}>
        <Input
          id="login-password"
          type="password"
          autoComplete="current-password"
          value={values.password}
          onChange={set("password")}
          {...invalidProps("login-password", errors.password)}
        />
      </Field>
      {needsCode && (
        <Field id="login-code" label="Two-factor code (or a recovery code)" error={errors.totpCode}>
          <Input
            id="login-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            value={values.totpCode}
            onChange={set("totpCode")}
          />
        </Field>
      )}
      {needsBotCheck && siteKey !== null && (
        <div>
          <TurnstileWidget ref={botCheck} siteKey={siteKey} action="login" onToken={setBotToken} />
          {errors.turnstile && !botToken && (
            <p role="alert" className="mt-1 text-center text-sm text-destructive">
              {errors.turnstile}
            </p>
          )}
        </div>
      )}
      <Button type="submit" className="w-full" disabled={login.isPending}>
        {login.isPending ? "Signing in..." : "Sign In"}
      </Button>
      <p className="text-center text-sm">
        <Link to="/forgot-password" className="text-primary hover:underline">
          Forgot password?
        </Link>
      </p>
    </form>
  );
}

function RegisterForm() {
  const register = useRegister();
  const [values, setValues] = useState({ username: "", email: "", password: "", confirmPassword: "", acceptTerms: false });
  const [errors, setErrors] = useState<FieldErrors>({});
  const siteKey = useBotCheckSiteKey();
  const [botToken, setBotToken] = useState<string | null>(null);
  const botCheck = useRef<TurnstileHandle>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { registerFormSchema } = await loadRules();
    const v = validate(registerFormSchema, values);
    const botMissing = siteKey !== null && botToken === null;
    setErrors({ ...v.errors, ...(botMissing ? { turnstile: FAIR_PLAY.botCheckPending } : {}) });
    if (!v.data || botMissing) return;
    const { confirmPassword: _omit, ...input } = v.data;
    register.mutate(siteKey !== null && botToken !== null ? { ...input, turnstileToken: botToken } : input, {
      onSuccess: (user) => toast.success("Registration successful", `Welcome to Trivia Arena, ${user.username}!`),
      onError: (error) => {
        // The token was spent on this attempt, whatever went wrong.
        botCheck.current?.reset();
        toast.error("Registration failed", errorMessage(error));
      },
    });
  };

  const set = (k: Exclude<keyof typeof values, "acceptTerms">) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues({ ...values, [k]: e.target.value });
  return (
    <form onSubmit={(e) => void submit(e)} onFocus={() => void loadRules()} className="space-y-4" noValidate>
      <Field id="register-username" label="Username" error={errors.username}>
        <Input
          id="register-username"
          autoComplete="username"
          value={values.username}
          onChange={set("username")}
          {...invalidProps("register-username", errors.username)}
        />
      </Field>
      <Field id="register-email" label="Email" error={errors.email}>
        <Input
          id="register-email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={set("email")}
          {...invalidProps("register-email", errors.email)}
        />
      </Field>
      <Field id="register-password" label="Password" error={errors.password}>
        <Input
          id="register-password"
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set("password")}
          {...invalidProps("register-password", errors.password)}
        />
      </Field>
      <Field id="register-confirm" label="Confirm Password" error={errors.confirmPassword}>
        <Input
          id="register-confirm"
          type="password"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={set("confirmPassword")}
          {...invalidProps("register-confirm", errors.confirmPassword)}
        />
      </Field>
      <div>
        <div className="flex items-start gap-2">
          <Checkbox
            id="register-terms"
            className="mt-0.5"
            checked={values.acceptTerms}
            onCheckedChange={(checked) => setValues({ ...values, acceptTerms: checked === true })}
            aria-describedby={errors.acceptTerms ? "register-terms-error" : undefined}
            aria-invalid={errors.acceptTerms ? true : undefined}
          />
          {/* The label's words name the documents; each is a link to its page, opened in a new tab so the form keeps what was typed. */}
          <label htmlFor="register-terms" className="text-sm leading-snug">
            I agree to the{" "}
            <Link to="/terms" target="_blank" className="text-primary hover:underline">
              Terms of Service
            </Link>{" "}
            and{" "}
            <Link to="/rules" target="_blank" className="text-primary hover:underline">
              Official Rules
            </Link>{" "}
            and have read the{" "}
            <Link to="/privacy" target="_blank" className="text-primary hover:underline">
              Privacy Policy
            </Link>
          </label>
        </div>
        {errors.acceptTerms && (
          <p id="register-terms-error" role="alert" className="mt-1 text-sm text-destructive">
            {errors.acceptTerms}
          </p>
        )}
      </div>
      {siteKey !== null && (
        <div>
          <TurnstileWidget ref={botCheck} siteKey={siteKey} action="register" onToken={setBotToken} />
          {errors.turnstile && !botToken && (
            <p role="alert" className="mt-1 text-center text-sm text-destructive">
              {errors.turnstile}
            </p>
          )}
        </div>
      )}
      <Button type="submit" className="w-full" disabled={register.isPending}>
        {register.isPending ? "Creating account..." : "Create Account"}
      </Button>
    </form>
  );
}
