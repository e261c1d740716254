package android.os;

/** Stub of android.os.Bundle (BaseBundle's getters folded in). */
public final class Bundle {
    public Bundle() { throw new RuntimeException("Stub!"); }
    public void putString(String key, String value) { throw new RuntimeException("Stub!"); }
    public String getString(String key) { throw new RuntimeException("Stub!"); }
    public void putBoolean(String key, boolean value) { throw new RuntimeException("Stub!"); }
    public boolean getBoolean(String key) { throw new RuntimeException("Stub!"); }
}
