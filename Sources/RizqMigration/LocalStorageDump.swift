import RizqPrefs
import RizqSecrets
