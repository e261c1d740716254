package android.webkit;

/** Stub of android.webkit.ValueCallback (developer.android.com, API 1). */
public interface ValueCallback<T> {
    void onReceiveValue(T value);
}
